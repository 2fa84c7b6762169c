// Calendar arithmetic in local time (the TZ of the process, via the C
// library's tz database): converting instants to wall-clock fields and back,
// and the next instant a CronExpr matches. Pure functions of their inputs and
// the time zone rules; thread-safe (localtime_r).
//
// Daylight saving time, the way a NAS owner expects a 02:30 job to behave:
//  - spring forward (02:00 -> 03:00): a wall time that does not exist runs
//    once, at the first instant after the gap (03:00 new time);
//  - fall back (03:00 -> 02:00): a wall time that happens twice runs once, at
//    its first occurrence.
#pragma once

#include <optional>

#include "base/clock.h"
#include "config/cron_expr.h"

namespace dp {

struct LocalTime {
  int year = 1970, month = 1, day = 1;  // month 1-12, day 1-31
  int hour = 0, minute = 0, second = 0;
  int weekday = 4;             // 0 = Sunday
  int utc_offset_seconds = 0;  // east of UTC, e.g. 7200 for CEST
  bool operator==(const LocalTime&) const = default;
};

LocalTime ToLocal(SysTime t);

// The instant a wall-clock minute (seconds 0) denotes: the earlier of two
// when it happens twice, the end of the gap when it does not exist.
SysTime FromLocal(int year, int month, int day, int hour, int minute);

// The first instant strictly after `after` whose local wall-clock minute
// matches `cron` (see the DST rules above). nullopt only for expressions that
// never match within 8 years (ParseCronExpr rejects those it can see).
std::optional<SysTime> CronNextAfter(const CronExpr& cron, SysTime after);

}  // namespace dp
