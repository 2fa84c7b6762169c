#include "sched/next_due.h"

#include <algorithm>

#include "sched/calendar.h"

namespace dp {
namespace {

std::uint64_t Fnv1a(std::string_view a, std::string_view b) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ULL;
    }
  };
  mix(a);
  mix(std::string_view("\0", 1));
  mix(b);
  return h;
}

// The first due time of a pair that has never run, counted from `ref`.
std::optional<SysTime> FirstDue(const ScheduleConfig& s, std::string_view key, SysTime ref) {
  if (s.when.is_interval()) return ref + JitterOffset(s, key);
  return SlotAfter(s, key, ref);
}

}  // namespace

std::chrono::seconds JitterOffset(const ScheduleConfig& s, std::string_view drive_key) {
  std::int64_t span = s.jitter_seconds;
  if (s.when.is_interval()) span = std::min(span, s.when.every_seconds);
  if (span <= 0) return std::chrono::seconds(0);
  return std::chrono::seconds(
      static_cast<std::int64_t>(Fnv1a(s.name, drive_key) % static_cast<std::uint64_t>(span)));
}

std::optional<SysTime> SlotAfter(const ScheduleConfig& s, std::string_view key, SysTime t) {
  if (s.when.is_interval()) return t + std::chrono::seconds(s.when.every_seconds);
  if (!s.when.cron) return std::nullopt;
  const auto off = JitterOffset(s, key);
  auto base = CronNextAfter(*s.when.cron, t - off);
  if (!base) return std::nullopt;
  return *base + off;
}

DueState RebaseAfterClockJump(const ScheduleConfig& s, std::string_view key, const DueState& state,
                              SysTime now) {
  DueState out = state;
  if (state.last_run && *state.last_run > now) {
    auto kept = SlotAfter(s, key, *state.last_run);
    auto first = SlotAfter(s, key, now);
    auto second = first ? SlotAfter(s, key, *first) : std::nullopt;
    if (kept && second && *kept > *second) out.last_run = now;
  } else if (!state.last_run && state.first_seen && *state.first_seen > now) {
    auto kept = FirstDue(s, key, *state.first_seen);
    auto first = FirstDue(s, key, now);
    auto second = first ? SlotAfter(s, key, *first) : std::nullopt;
    if (kept && second && *kept > *second) out.first_seen = now;
  }
  return out;
}

std::optional<SysTime> NextDue(const ScheduleConfig& s, std::string_view key, const DueState& state,
                               SysTime now) {
  if (!s.enabled) return std::nullopt;
  const DueState st = RebaseAfterClockJump(s, key, state, now);
  if (st.last_run) return SlotAfter(s, key, *st.last_run);
  return FirstDue(s, key, st.first_seen.value_or(now));
}

std::optional<SysTime> NextDue(const ScheduleConfig& s, std::string_view key,
                               std::optional<SysTime> last_run, SysTime now) {
  return NextDue(s, key, DueState{last_run, now}, now);
}

SysTime RecordedRunTime(const ScheduleConfig& s, std::string_view key, SysTime due, SysTime now) {
  if (due > now) return now;
  auto next = SlotAfter(s, key, due);
  if (next && *next > now) return due;
  return now;
}

}  // namespace dp
