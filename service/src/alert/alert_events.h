// Alert events: one alert per fact the owner should hear once.
//
// A drive that got slower moves several series in one window: the five seek
// strokes, the three zones and seq, QD1 and QD32, each judged against its
// own baseline and against its vdev siblings. Alerted series by series, one
// event opened up to ten alerts and sent as many notifications. Here the
// verdicts of a run are gathered into events:
//   - a drive's slowdown, trend and peer verdicts: one alert "slowdown:drive",
//     the drive's speed (one decline seen by three rules is one problem, told
//     once; each rule's series is a member of it);
//   - every environment verdict of the box (any vdev): one alert
//     "environment:box" filed under no drive;
//   - anything else (SMART, pool): its own condition, as before.
// An event alert keeps every series that fired as a member (the evidence's
// "members": condition, state, clear streak, last verdict). Each member
// lives through the ordinary lifecycle (alert_lifecycle.h: hysteresis,
// clear streak); further members refresh the event, never open another; the
// event resolves when its last member has (the box's, when besides none has
// fired for kEventQuietSeconds, two weekly runs). Its summary and evidence
// are the worst member's, with the others named; its words
// (alert/alert_words.h) speak of every member.
// The members and the event's timers are typed (Alert::event, model/alert.h).
//
// Both AlertService (the daemon) and the field model
// (benchmarks/detect_field.cc) apply a run's verdicts with ApplyVerdicts.
// Pure, thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "alert/alert_lifecycle.h"
#include "base/clock.h"
#include "base/result.h"
#include "model/alert.h"
#include "model/verdict.h"

namespace dp {

// A drive's speed: its slowdown, trend and peer verdicts. The key keeps the
// name it had when trends were apart (stored alerts, overrides and
// dashboards know it), and its kind is kSlowdown.
inline constexpr const char* kDriveSpeedEvent = "slowdown:drive";
inline constexpr const char* kBoxEnvironmentEvent = "environment:box";
inline constexpr std::int64_t kEventQuietSeconds = 14 * 86400;

// The alert a verdict belongs to.
struct AlertKey {
  std::string drive_id;   // "" for the box
  std::string condition;  // an event's, or the verdict's own
  bool event = false;     // gathers members
  bool operator<(const AlertKey& o) const {
    return drive_id != o.drive_id ? drive_id < o.drive_id : condition < o.condition;
  }
};
AlertKey AlertKeyOf(const Verdict& v);

// True for an active drive speed event opened before `at` and
// notified: a drive already alerted as slowing before a shift its group
// shared began (a watch is not: it is absorbed with the shift).
bool SlowingBefore(const Alert& a, std::int64_t at);

// True when one of the event alert's active members satisfies
// match(member condition, member test).
bool EventHasMember(const Alert& event,
                    const std::function<bool(const std::string& condition,
                                             const std::string& test)>& match);

// What an event alert does with this run's verdicts of its members.
// `existing`: the active event alert, if any. `urgent`: notify at once (the
// drive has an active SMART alert: a slowdown with it is no housekeeping).
// told_before: the event's newest resolved alert, for the box's join rule.
AlertDecision UpdateEvent(const std::optional<Alert>& existing,
                          const std::vector<const Verdict*>& members, SysTime now,
                          const AlertPolicy& policy, bool urgent = false,
                          const std::optional<Alert>& told_before = std::nullopt);

// Applies one run's (or snapshot's) verdicts to the alerts: each decision
// goes to `apply` (store it, send its notification), events after the
// verdicts of their own condition. lookup.find: the active alert of (drive,
// condition); lookup.urgent: whether a drive's performance events notify at
// once (may be empty). Every verdict is attempted; the first error returned.
struct AlertLookup {
  std::function<Result<std::optional<Alert>>(const std::string& drive_id,
                                             const std::string& condition)>
      find;
  std::function<Result<bool>(const std::string& drive_id)> urgent;
  // The newest resolved alert of (drive, condition) (may be empty): a box's
  // step told once is not told again by a second environment event within
  // kBoxStepJoinSeconds.
  std::function<Result<std::optional<Alert>>(const std::string& drive_id,
                                             const std::string& condition)>
      last_resolved;
};

// A box event opened within this long of a notified one's resolution is the
// same step seen on another series (a drive absorbing it weeks later): it
// joins, quietly, rather than being told again.
inline constexpr std::int64_t kBoxStepJoinSeconds = 91 * 86400;
Status ApplyVerdicts(const std::vector<Verdict>& verdicts, const AlertLookup& lookup, SysTime now,
                     const AlertPolicy& policy,
                     const std::function<Status(AlertDecision)>& apply);

}  // namespace dp
