#include "config/cron_expr.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

CronExpr Parse(const std::string& text) {
  auto r = ParseCronExpr(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : CronExpr{};
}

std::string Error(const std::string& text) {
  auto r = ParseCronExpr(text);
  EXPECT_FALSE(r.ok()) << text << " parsed";
  return r.ok() ? "" : r.status().message();
}

TEST(CronExprTest, MinuteListsRangesAndSteps) {
  CronExpr e = Parse("0,15,59 * * * *");
  EXPECT_TRUE(e.Minute(0) && e.Minute(15) && e.Minute(59));
  EXPECT_FALSE(e.Minute(1) || e.Minute(30));
  e = Parse("*/20 * * * *");
  EXPECT_EQ(e.minutes, (1ULL << 0) | (1ULL << 20) | (1ULL << 40));
  e = Parse("10-14/2 * * * *");
  EXPECT_EQ(e.minutes, (1ULL << 10) | (1ULL << 12) | (1ULL << 14));
  e = Parse("50/5 * * * *");  // start/step runs to the end of the field
  EXPECT_EQ(e.minutes, (1ULL << 50) | (1ULL << 55));
  e = Parse("5-7,30 * * * *");
  EXPECT_EQ(e.minutes, (1ULL << 5) | (1ULL << 6) | (1ULL << 7) | (1ULL << 30));
}

TEST(CronExprTest, HoursDaysMonths) {
  CronExpr e = Parse("0 3 * * *");
  EXPECT_EQ(e.hours, 1u << 3);
  EXPECT_EQ(e.months, 0b1111111111110u);
  e = Parse("0 */6 1,15 * *");
  EXPECT_EQ(e.hours, (1u << 0) | (1u << 6) | (1u << 12) | (1u << 18));
  EXPECT_EQ(e.days_of_month, (1u << 1) | (1u << 15));
  EXPECT_FALSE(e.dom_star);
  EXPECT_TRUE(e.dow_star);
  e = Parse("0 0 1 jan,JUL *");
  EXPECT_EQ(e.months, (1u << 1) | (1u << 7));
  e = Parse("0 0 1 mar-may *");
  EXPECT_EQ(e.months, (1u << 3) | (1u << 4) | (1u << 5));
}

TEST(CronExprTest, WeekdaysNamesAndSevenIsSunday) {
  EXPECT_EQ(Parse("0 3 * * sun").days_of_week, 1u);
  EXPECT_EQ(Parse("0 3 * * 7").days_of_week, 1u);
  EXPECT_EQ(Parse("0 3 * * 0").days_of_week, 1u);
  EXPECT_EQ(Parse("0 3 * * Mon-Fri").days_of_week, 0b0111110u);
  EXPECT_EQ(Parse("0 3 * * 5-7").days_of_week, (1u << 5) | (1u << 6) | 1u);
  EXPECT_EQ(Parse("0 3 * * */2").days_of_week, (1u << 0) | (1u << 2) | (1u << 4) | (1u << 6));
  EXPECT_EQ(Parse("0 3 * * *").days_of_week, 0b1111111u);
}

TEST(CronExprTest, Aliases) {
  EXPECT_EQ(Parse("@daily").minutes, Parse("0 0 * * *").minutes);
  EXPECT_EQ(Parse("@weekly").days_of_week, 1u);
  EXPECT_EQ(Parse("@monthly").days_of_month, 1u << 1);
  EXPECT_EQ(Parse("@yearly").months, 1u << 1);
  EXPECT_EQ(Parse("@hourly").hours, 0xFFFFFFu);
  EXPECT_EQ(Parse("@weekly").text, "@weekly");
}

TEST(CronExprTest, DayOfMonthAndWeekdayCombineLikeVixieCron) {
  // Both restricted: either matches.
  CronExpr both = Parse("0 1 1-7 * sat");
  EXPECT_TRUE(both.Day(3, 2));   // the 3rd, a Tuesday
  EXPECT_TRUE(both.Day(20, 6));  // a Saturday the 20th
  EXPECT_FALSE(both.Day(20, 2));
  // Only one restricted: that one decides.
  CronExpr dom = Parse("0 1 15 * *");
  EXPECT_TRUE(dom.Day(15, 3));
  EXPECT_FALSE(dom.Day(16, 3));
  CronExpr dow = Parse("0 1 * * sun");
  EXPECT_TRUE(dow.Day(16, 0));
  EXPECT_FALSE(dow.Day(16, 1));
}

TEST(CronExprTest, InvalidExpressionsNameTheField) {
  EXPECT_EQ(Error("61 * * * *"), "minute 61 out of range 0-59");
  EXPECT_EQ(Error("* 24 * * *"), "hour 24 out of range 0-23");
  EXPECT_EQ(Error("* * 0 * *"), "day-of-month 0 out of range 1-31");
  EXPECT_EQ(Error("* * 32 * *"), "day-of-month 32 out of range 1-31");
  EXPECT_EQ(Error("* * * 13 *"), "month 13 out of range 1-12");
  EXPECT_EQ(Error("* * * * 8"), "day-of-week 8 out of range 0-6 (or 7 for Sunday)");
  EXPECT_NE(Error("* * * * sunday").find("day-of-week: unknown name 'sunday'"), std::string::npos);
  EXPECT_NE(Error("* * * foo *").find("month: unknown name 'foo'"), std::string::npos);
  EXPECT_NE(Error("* mon * * *").find("hour: unknown name 'mon'"), std::string::npos);
  EXPECT_EQ(Error("30-10 * * * *"), "minute: range '30-10' runs backwards");
  EXPECT_EQ(Error("*/0 * * * *"), "minute: step 0 out of range 1-60");
  EXPECT_EQ(Error("*/x * * * *"), "minute: step 'x' is not a number");
  EXPECT_EQ(Error("1,,2 * * * *"), "minute: empty list element in '1,,2'");
  EXPECT_EQ(Error("-5 * * * *"), "minute: empty value");
  EXPECT_NE(Error("0 3 * *").find("expected 5 fields"), std::string::npos);
  EXPECT_NE(Error("0 3 * * * *").find("found 6"), std::string::npos);
  EXPECT_NE(Error("").find("found 0"), std::string::npos);
  EXPECT_NE(Error("@fortnightly").find("unknown alias"), std::string::npos);
  EXPECT_NE(Error("0 0 30 feb *").find("never"), std::string::npos);
  EXPECT_NE(Error("0 0 31 apr,jun *").find("never"), std::string::npos);
  // ...but either-or with a weekday can still happen.
  EXPECT_TRUE(ParseCronExpr("0 0 30 feb mon").ok());
  EXPECT_TRUE(ParseCronExpr("0 0 29 feb *").ok());  // leap years
}

}  // namespace
}  // namespace dp
