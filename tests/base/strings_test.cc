#include "base/strings.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(StringsTest, AsciiLowerFoldsLettersOnly) {
  EXPECT_EQ(AsciiLower("WDC WD80-EFAX \xC3\x84"), "wdc wd80-efax \xC3\x84");
  EXPECT_EQ(AsciiLower(""), "");
}

TEST(StringsTest, TrimTakesBlanksOffBothEnds) {
  EXPECT_EQ(Trim(" \t scan: none requested\r\n"), "scan: none requested");
  EXPECT_EQ(Trim(" \t\r\n"), "");
  EXPECT_EQ(Trim("a  b"), "a  b");
}

TEST(StringsTest, LowerFirstLowersTheFirstLetterAlone) {
  EXPECT_EQ(LowerFirst("Connection Refused"), "connection Refused");
  EXPECT_EQ(LowerFirst(""), "");
}

TEST(StringsTest, FoldNameIgnoresCaseBlanksDashesAndUnderscores) {
  EXPECT_EQ(FoldName("ST4000 VN008-2DR1"), FoldName("st4000_vn0082dr1"));
  EXPECT_NE(FoldName("sda"), FoldName("sdb"));
}

TEST(StringsTest, TimesFormatInUtc) {
  EXPECT_EQ(FormatUtcTime(0, "%Y-%m-%dT%H:%M:%SZ"), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatUtcTime(1764460800, "%a, %d %b %Y"), "Sun, 30 Nov 2025");
  EXPECT_FALSE(FormatLocalTime(1764460800, "%Y").empty());
}

}  // namespace
}  // namespace dp
