#include "sched/calendar.h"

#include <chrono>
#include <ctime>

namespace dp {
namespace {

using std::chrono::days;
using std::chrono::sys_days;
using std::chrono::year_month_day;

int OffsetAt(std::int64_t unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  localtime_r(&t, &tm);
  return static_cast<int>(tm.tm_gmtoff);
}

// Seconds of a wall-clock reading as if it were UTC ("local seconds").
std::int64_t LocalSeconds(int year, int month, int day, int hour, int minute) {
  auto d = sys_days{std::chrono::year{year} / month / day};
  return static_cast<std::int64_t>(d.time_since_epoch().count()) * 86400 + hour * 3600 +
         minute * 60;
}

}  // namespace

LocalTime ToLocal(SysTime t) {
  std::time_t s = static_cast<std::time_t>(ToUnixSeconds(t));
  std::tm tm{};
  localtime_r(&s, &tm);
  LocalTime l;
  l.year = tm.tm_year + 1900;
  l.month = tm.tm_mon + 1;
  l.day = tm.tm_mday;
  l.hour = tm.tm_hour;
  l.minute = tm.tm_min;
  l.second = tm.tm_sec;
  l.weekday = tm.tm_wday;
  l.utc_offset_seconds = static_cast<int>(tm.tm_gmtoff);
  return l;
}

SysTime FromLocal(int year, int month, int day, int hour, int minute) {
  const std::int64_t local = LocalSeconds(year, month, day, hour, minute);
  // The offsets in force a day either side cover every real zone's single
  // transition; an instant is a solution when its own offset maps it back.
  const int before = OffsetAt(local - 86400 - 50400);
  const int after = OffsetAt(local + 86400 + 50400);
  std::optional<std::int64_t> best;
  for (int off : {before, after}) {
    std::int64_t t = local - off;
    if (OffsetAt(t) == off && (!best || t < *best)) best = t;
  }
  if (best) return FromUnixSeconds(*best);
  // In a gap: the answer is the transition instant, the first second with the
  // new offset, between the two readings of the wall time.
  std::int64_t lo = local - std::max(before, after);  // still the old offset
  std::int64_t hi = local - std::min(before, after);  // already the new one
  if (lo > hi) std::swap(lo, hi);
  const int old_off = OffsetAt(lo);
  while (hi - lo > 1) {
    std::int64_t mid = lo + (hi - lo) / 2;
    if (OffsetAt(mid) == old_off)
      lo = mid;
    else
      hi = mid;
  }
  return FromUnixSeconds(hi);
}

std::optional<SysTime> CronNextAfter(const CronExpr& cron, SysTime after) {
  const LocalTime start = ToLocal(after);
  sys_days day = sys_days{std::chrono::year{start.year} / start.month / start.day};
  constexpr int kMaxDays = 8 * 366;
  for (int n = 0; n < kMaxDays; ++n, day += days{1}) {
    year_month_day ymd{day};
    const int month = static_cast<int>(static_cast<unsigned>(ymd.month()));
    const int dom = static_cast<int>(static_cast<unsigned>(ymd.day()));
    const int wday = static_cast<int>(std::chrono::weekday{day}.c_encoding());
    if (!cron.Month(month) || !cron.Day(dom, wday)) continue;
    const int year = static_cast<int>(ymd.year());
    for (int h = (n == 0 ? start.hour : 0); h < 24; ++h) {
      if (!cron.Hour(h)) continue;
      for (int m = (n == 0 && h == start.hour ? start.minute : 0); m < 60; ++m) {
        if (!cron.Minute(m)) continue;
        // Wall times are visited in order; the instant test drops the second
        // pass of a repeated hour (its first occurrence already lies behind)
        // and the minutes a gap folded onto an instant already used.
        SysTime t = FromLocal(year, month, dom, h, m);
        if (t > after) return t;
      }
    }
  }
  return std::nullopt;
}

}  // namespace dp
