#include "base/strings.h"

#include <cctype>

namespace dp {
namespace {

char LowerChar(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string Format(const std::tm& tm, const char* format) {
  char buf[128];
  const std::size_t n = std::strftime(buf, sizeof buf, format, &tm);
  return std::string(buf, n);
}

}  // namespace

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = LowerChar(c);
  return out;
}

std::string Trim(std::string_view s) {
  constexpr std::string_view kBlank = " \t\r\n";
  const auto b = s.find_first_not_of(kBlank);
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(kBlank);
  return std::string(s.substr(b, e - b + 1));
}

std::string LowerFirst(std::string s) {
  if (!s.empty()) s[0] = LowerChar(s[0]);
  return s;
}

std::string FoldName(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '-' || c == '_') continue;
    out += LowerChar(c);
  }
  return out;
}

std::string FormatUtcTime(std::time_t t, const char* format) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  return Format(tm, format);
}

std::string FormatLocalTime(std::time_t t, const char* format) {
  std::tm tm{};
  localtime_r(&t, &tm);
  return Format(tm, format);
}

}  // namespace dp
