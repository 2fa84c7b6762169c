// The lines of a tool's text output, and the fields of a line. Shared by the
// inventory's text parsers, so that what separates two columns is the same
// for every tool.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dp {

// The lines without their "\n" or "\r\n"; a last line without a newline
// is kept.
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

// Where the fields of a line separated by blanks and tabs are, as [begin,
// end) offsets: for parsers that keep the rest of a line from one field on.
inline std::vector<std::pair<std::size_t, std::size_t>> FieldSpans(std::string_view line) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    spans.emplace_back(b, i);
  }
  return spans;
}

// The fields of a line separated by blanks and tabs.
inline std::vector<std::string> SplitFields(std::string_view line) {
  std::vector<std::string> out;
  for (auto [b, e] : FieldSpans(line)) out.emplace_back(line.substr(b, e - b));
  return out;
}

}  // namespace dp
