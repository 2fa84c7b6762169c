// Alert: one problem with one drive (or pool) and its lifecycle
// open -> acknowledged -> resolved. The alert module decides transitions; the
// store keeps them. At most one open-or-acknowledged alert exists per
// (drive_id, condition). Times are unix seconds. Plain value type.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/condition.h"

namespace dp {

struct Alert {
  std::int64_t id = 0;
  std::string drive_id;        // "" for an alert about a pool or the daemon itself
  std::string condition;       // "slowdown:seq", "smart:reallocated", "zfs:cksum", ...
  std::string severity;        // info | warning | critical
  std::string state = "open";  // open | acknowledged | resolved
  std::string summary;         // one line for people
  std::string evidence_json;   // the numbers behind the verdict (a JSON document)
  std::int64_t opened_at = 0;
  std::int64_t updated_at = 0;
  std::optional<std::int64_t> acknowledged_at;
  std::optional<std::int64_t> resolved_at;
  std::optional<std::int64_t> last_notified_at;
  int notify_count = 0;  // notifications sent so far (reminders count)
  int clear_streak = 0;  // consecutive evaluations without the condition
  // Why a resolved alert was closed otherwise than by its condition clearing:
  // "re-baselined: firmware changed from A to B"; "" otherwise.
  std::string resolution;
};

// Every kind of alert condition: the part of `condition` before its first ':',
// named by the detector that raised it (slowdown, trend and peer: a read
// test's figures; smart: SMART counters, health, self-tests, temperature,
// NVMe warnings; zfs: pool errors, ZFS latency, SLOW counts, sit-outs;
// environment: a whole vdev slower at once). /metrics reports each per drive,
// 0 when none is open, so a rule that forwards them sees every kind.
// The names of model/condition.h's kinds, in its order.
inline constexpr std::array<std::string_view, kConditionKinds.size()> kAlertKinds = [] {
  std::array<std::string_view, kConditionKinds.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = ConditionKindName(kConditionKinds[i]);
  return names;
}();

// The kind of a condition by name ("other" for one of no known kind).
inline std::string_view AlertKindOf(std::string_view condition) {
  return ConditionKindName(ConditionKindOf(condition));
}

}  // namespace dp
