// Small text helpers every module needs: ASCII case and blanks (device names,
// tool output, error messages) and a time as text. One place each, so their
// rules (what counts as blank, which letters fold) cannot drift apart.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

namespace dp {

// ASCII letters to lower case; other bytes unchanged.
std::string AsciiLower(std::string_view s);

// Without leading and trailing spaces, tabs, CR and LF.
std::string Trim(std::string_view s);

// The first letter in lower case: a system message ("Connection refused")
// read on inside a sentence of ours ("...: connection refused").
std::string LowerFirst(std::string s);

// For matching names written in different styles: lower case, without
// blanks, dashes and underscores ("ST4000 VN008" ~ "st4000-vn008").
std::string FoldName(std::string_view s);

// `t` through strftime's `format`, in UTC or in the machine's local time.
std::string FormatUtcTime(std::time_t t, const char* format);
std::string FormatLocalTime(std::time_t t, const char* format);

}  // namespace dp
