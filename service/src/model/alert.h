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
  // How a resolved alert was closed: its condition cleared ("cleared: ..."
  // with the verdict that cleared it) or otherwise ("re-baselined: firmware
  // changed from A to B"); "" while active.
  std::string resolution;
  // What the alert opened with, kept as it was: summary and evidence are the
  // latest verdict's, so these say afterwards why it opened.
  std::string opened_summary;
  std::string opened_evidence_json;
  // Its refreshes, escalations, notification and resolution, oldest first
  // (a JSON array of {"at", "what", "summary"}; the newest kAlertHistoryKept).
  std::string history_json;
};

inline constexpr int kAlertHistoryKept = 40;

}  // namespace dp
