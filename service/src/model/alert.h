// Alert: one problem with one drive (or pool) and its lifecycle
// open -> acknowledged -> resolved. The alert module decides transitions; the
// store keeps them. At most one open-or-acknowledged alert exists per
// (drive_id, condition). Times are unix seconds. Plain value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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

}  // namespace dp
