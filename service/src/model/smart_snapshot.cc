#include "model/smart_snapshot.h"

#include <limits>

namespace dp {

std::optional<std::uint64_t> RawShownNumber(const SmartAttribute& a) {
  const std::string& s = a.raw_string;
  std::size_t i = s.find_first_not_of(' ');
  if (i == std::string::npos) return a.raw;
  const std::size_t start = i;
  std::uint64_t v = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (v > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return a.raw;
    v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
  }
  // A count ends the string or is followed by its explanation: " (...)",
  // "h+06m..." (hours and minutes), "/..." (a pair of counts).
  if (i == start || (i < s.size() && s[i] != ' ' && s[i] != '(' && s[i] != 'h' && s[i] != '/'))
    return a.raw;
  return v;
}

}  // namespace dp
