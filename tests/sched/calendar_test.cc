#include "sched/calendar.h"

#include <gtest/gtest.h>

#include <map>

#include "support/capability.h"
#include "support/sched_test_util.h"

namespace dp {
namespace {

using testing::ScopedTz;
using testing::Utc;

CronExpr Cron(const char* text) { return ParseCronExpr(text).value(); }

#define REQUIRE_TZ(tz) \
  if (!ScopedTz::Available(tz)) DP_SKIP_WITHOUT("tzdata", "time zone " tz " not installed")

TEST(CalendarTest, ToLocalAndBackInUtc) {
  ScopedTz tz("UTC");
  LocalTime l = ToLocal(Utc(2026, 1, 4, 3, 7, 9));
  EXPECT_EQ(l.year, 2026);
  EXPECT_EQ(l.month, 1);
  EXPECT_EQ(l.day, 4);
  EXPECT_EQ(l.hour, 3);
  EXPECT_EQ(l.minute, 7);
  EXPECT_EQ(l.second, 9);
  EXPECT_EQ(l.weekday, 0);  // a Sunday
  EXPECT_EQ(FromLocal(2026, 1, 4, 3, 7), Utc(2026, 1, 4, 3, 7));
}

TEST(CalendarTest, FromLocalAcrossBerlinTransitions) {
  REQUIRE_TZ("Europe/Berlin");
  ScopedTz tz("Europe/Berlin");
  EXPECT_EQ(FromLocal(2026, 1, 10, 12, 0), Utc(2026, 1, 10, 11, 0));  // CET
  EXPECT_EQ(FromLocal(2026, 7, 10, 12, 0), Utc(2026, 7, 10, 10, 0));  // CEST
  // 2026-03-29 02:00 CET -> 03:00 CEST: 02:30 does not exist; the gap's end.
  EXPECT_EQ(FromLocal(2026, 3, 29, 2, 30), Utc(2026, 3, 29, 1, 0));
  EXPECT_EQ(FromLocal(2026, 3, 29, 3, 0), Utc(2026, 3, 29, 1, 0));
  // 2026-10-25 03:00 CEST -> 02:00 CET: 02:30 happens twice; the first.
  EXPECT_EQ(FromLocal(2026, 10, 25, 2, 30), Utc(2026, 10, 25, 0, 30));
  EXPECT_EQ(FromLocal(2026, 10, 25, 3, 30), Utc(2026, 10, 25, 2, 30));
}

TEST(CalendarTest, CronNextAfterSimple) {
  ScopedTz tz("UTC");
  CronExpr weekly = Cron("0 3 * * sun");
  // 2026-01-01 is a Thursday.
  EXPECT_EQ(*CronNextAfter(weekly, Utc(2026, 1, 1)), Utc(2026, 1, 4, 3, 0));
  EXPECT_EQ(*CronNextAfter(weekly, Utc(2026, 1, 4, 3, 0)),
            Utc(2026, 1, 11, 3, 0));  // strictly after
  EXPECT_EQ(*CronNextAfter(weekly, Utc(2026, 1, 4, 2, 59, 59)), Utc(2026, 1, 4, 3, 0));
  EXPECT_EQ(*CronNextAfter(Cron("*/15 * * * *"), Utc(2026, 1, 1, 10, 7, 30)),
            Utc(2026, 1, 1, 10, 15));
  EXPECT_EQ(*CronNextAfter(Cron("0 0 1 jan *"), Utc(2026, 6, 1)), Utc(2027, 1, 1));
  EXPECT_EQ(*CronNextAfter(Cron("0 0 29 feb *"), Utc(2026, 3, 1)), Utc(2028, 2, 29));
  EXPECT_EQ(*CronNextAfter(Cron("0 0 31 * *"), Utc(2026, 4, 1)), Utc(2026, 5, 31));
  // Day-of-month OR weekday: the 15th or any Monday; 2026-01-05 is a Monday.
  EXPECT_EQ(*CronNextAfter(Cron("0 1 15 * mon"), Utc(2026, 1, 1)), Utc(2026, 1, 5, 1, 0));
  EXPECT_EQ(*CronNextAfter(Cron("0 1 15 * mon"), Utc(2026, 1, 13)), Utc(2026, 1, 15, 1, 0));
  EXPECT_EQ(*CronNextAfter(Cron("30 4 * 2 mon-fri"), Utc(2026, 1, 1)), Utc(2026, 2, 2, 4, 30));
}

// Counts the runs of `cron` per local calendar day over [from, to).
std::map<std::string, int> RunsPerLocalDay(const CronExpr& cron, SysTime from, SysTime to) {
  std::map<std::string, int> days;
  SysTime t = from;
  while (true) {
    auto next = CronNextAfter(cron, t);
    if (!next || *next >= to) break;
    EXPECT_GT(*next, t);
    LocalTime l = ToLocal(*next);
    char key[16];
    std::snprintf(key, sizeof key, "%04d-%02d-%02d", l.year, l.month, l.day);
    ++days[key];
    t = *next;
  }
  return days;
}

void ExpectDailyOnceAcrossDst(const char* zone, SysTime from, SysTime to, int expected_days) {
  ScopedTz tz(zone);
  auto days = RunsPerLocalDay(Cron("30 2 * * *"), from, to);
  EXPECT_EQ(static_cast<int>(days.size()), expected_days) << zone;
  for (const auto& [day, n] : days) EXPECT_EQ(n, 1) << zone << " " << day;
}

TEST(CalendarTest, TwoThirtyRunsOnceOnSpringForwardAndFallBackDays) {
  REQUIRE_TZ("Europe/Berlin");
  REQUIRE_TZ("America/New_York");
  ExpectDailyOnceAcrossDst("Europe/Berlin", Utc(2026, 3, 25), Utc(2026, 4, 2), 8);
  ExpectDailyOnceAcrossDst("Europe/Berlin", Utc(2026, 10, 20), Utc(2026, 10, 30), 10);
  ExpectDailyOnceAcrossDst("America/New_York", Utc(2026, 3, 5, 12), Utc(2026, 3, 12, 12), 7);
  ExpectDailyOnceAcrossDst("America/New_York", Utc(2026, 10, 29, 12), Utc(2026, 11, 4, 12), 6);
  // And at which instants, in Berlin.
  ScopedTz tz("Europe/Berlin");
  CronExpr c = Cron("30 2 * * *");
  EXPECT_EQ(*CronNextAfter(c, Utc(2026, 3, 28, 1, 30)), Utc(2026, 3, 29, 1, 0));     // 03:00 CEST
  EXPECT_EQ(*CronNextAfter(c, Utc(2026, 3, 29, 1, 0)), Utc(2026, 3, 30, 0, 30));     // 02:30 CEST
  EXPECT_EQ(*CronNextAfter(c, Utc(2026, 10, 24, 0, 30)), Utc(2026, 10, 25, 0, 30));  // 1st 02:30
  EXPECT_EQ(*CronNextAfter(c, Utc(2026, 10, 25, 0, 30)), Utc(2026, 10, 26, 1, 30));  // not the 2nd
  // Looking from inside the repeated hour (02:10 CET, the second pass).
  EXPECT_EQ(*CronNextAfter(c, Utc(2026, 10, 25, 1, 10)), Utc(2026, 10, 26, 1, 30));
}

TEST(CalendarTest, HourlyJobOnTransitionDaysRunsOncePerWallClockHour) {
  REQUIRE_TZ("Europe/Berlin");
  ScopedTz tz("Europe/Berlin");
  auto spring = RunsPerLocalDay(Cron("0 * * * *"), Utc(2026, 3, 28, 22, 59), Utc(2026, 3, 29, 22));
  EXPECT_EQ(spring["2026-03-29"], 23);  // 02:00 does not exist
  auto fall = RunsPerLocalDay(Cron("0 * * * *"), Utc(2026, 10, 24, 21, 59), Utc(2026, 10, 25, 23));
  EXPECT_EQ(fall["2026-10-25"], 24);  // 02:00 happens twice, runs once
}

TEST(CalendarTest, NeverMatchingExpressionGivesNullopt) {
  ScopedTz tz("UTC");
  CronExpr never = Cron("0 0 * * *");
  never.days_of_month = 0;  // hand-made: no day at all
  never.dom_star = false;
  EXPECT_FALSE(CronNextAfter(never, Utc(2026, 1, 1)).has_value());
}

}  // namespace
}  // namespace dp
