// CronExpr: a parsed 5-field cron expression ("minute hour day-of-month month
// day-of-week", as in crontab(5)), with ranges "1-5", lists "1,3", steps
// "*/15" "0-30/10" "5/20", names "sun".."sat" and "jan".."dec" (any case),
// 7 meaning Sunday, and the aliases @hourly @daily @midnight @weekly @monthly
// @yearly @annually. Day-of-month and day-of-week combine as in Vixie cron:
// when both are restricted (neither starts with '*'), a day matches if either
// matches. Plain value type; the arithmetic (next matching local time, DST)
// lives in sched/calendar.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace dp {

struct CronExpr {
  std::string text;                 // as written, for messages and previews
  std::uint64_t minutes = 0;        // bit m set: minute m (0-59) matches
  std::uint32_t hours = 0;          // bit h: hour 0-23
  std::uint32_t days_of_month = 0;  // bit d: day 1-31
  std::uint32_t months = 0;         // bit m: month 1-12
  std::uint32_t days_of_week = 0;   // bit w: weekday 0-6, 0 = Sunday
  bool dom_star = true;             // the day-of-month field started with '*'
  bool dow_star = true;             // the day-of-week field started with '*'

  bool Minute(int m) const { return (minutes >> m) & 1; }
  bool Hour(int h) const { return (hours >> h) & 1; }
  bool Month(int m) const { return (months >> m) & 1; }
  // Whether a calendar day (day of month 1-31, weekday 0-6) matches.
  bool Day(int day_of_month, int weekday) const;

  bool operator==(const CronExpr&) const = default;
};

// Parses an expression or alias. Errors name the field, e.g.
// "minute 61 out of range 0-59", "expected 5 fields, found 4",
// "day-of-week: unknown name 'sunday'".
Result<CronExpr> ParseCronExpr(std::string_view text);

}  // namespace dp
