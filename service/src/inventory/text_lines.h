// The lines of a tool's text output, without their "\n" or "\r\n"; a last
// line without a newline is kept. Shared by the inventory's text parsers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dp {

inline std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

}  // namespace dp
