// NextDue: when a schedule is next due for one drive — the one pure function
// of (schedule, state, now) that both runs the scheduler and previews it
// (`diskpulsed --show-schedule`), in the manner of smartd.
//
// Rules (times are instants; cron fields are read in local time, see
// sched/calendar.h for daylight saving time):
//  - slots: a cron schedule's slots are the matching wall-clock minutes; an
//    "@every I" schedule's next slot is I after the last run.
//  - jitter: each (schedule, drive) has a fixed offset in [0, jitter), a hash
//    of both names (FNV-1a), so drives are staggered the same way every time;
//    cron slots move later by it, and an interval's first run waits for it.
//  - first run: a drive never run by a schedule is due at the first slot
//    after `first_seen` (cron), or at first_seen + offset (interval).
//  - catch-up: a slot missed while the box was off is due at once (the
//    returned time lies in the past); after that run the next slot is
//    counted from it, so N missed slots give one run, not N.
//  - clock jumps: forward jumps are catch-up; after a backward jump (the last
//    run lies in the future) the next slot after the last run is kept when it
//    is at most two slots away from now (no repeat of a slot just run);
//    otherwise the state is rebased — last run (or first sighting) moved to
//    now — and the first slot after that is next (no stall for the size of
//    the jump). The scheduler stores the rebased state so the answer stays put.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "base/clock.h"
#include "config/schedule_config.h"

namespace dp {

// What the scheduler remembers per (schedule, drive), persisted in the store.
struct DueState {
  std::optional<SysTime> last_run;    // when the last slot was taken up (queued)
  std::optional<SysTime> first_seen;  // when the scheduler first saw the pair
  bool operator==(const DueState&) const = default;
};

// The stagger offset of this drive in this schedule, in [0, jitter); for an
// interval also below the interval.
std::chrono::seconds JitterOffset(const ScheduleConfig& schedule, std::string_view drive_key);

// The first slot strictly after t, jitter included. nullopt only for a cron
// expression that never matches.
std::optional<SysTime> SlotAfter(const ScheduleConfig& schedule, std::string_view drive_key,
                                 SysTime t);

// The state after a backward clock jump (see above): unchanged unless the
// last run or first sighting lies so far in the future that waiting for it
// would stall; then that time is moved to `now`.
DueState RebaseAfterClockJump(const ScheduleConfig& schedule, std::string_view drive_key,
                              const DueState& state, SysTime now);

// When the schedule is next due for the drive (<= now: due now). nullopt
// when it never is (disabled, or a cron expression that never matches).
std::optional<SysTime> NextDue(const ScheduleConfig& schedule, std::string_view drive_key,
                               const DueState& state, SysTime now);

// Convenience form: a drive first seen now.
std::optional<SysTime> NextDue(const ScheduleConfig& schedule, std::string_view drive_key,
                               std::optional<SysTime> last_run, SysTime now);

// The time to record as last_run when a slot due at `due` is taken up at
// `now`: the slot itself (so intervals don't drift by the scheduler's tick),
// unless the next slot after it would already be due — a catch-up — in
// which case `now`, so that one run stands for all missed slots.
SysTime RecordedRunTime(const ScheduleConfig& schedule, std::string_view drive_key, SysTime due,
                        SysTime now);

}  // namespace dp
