// Alert: one problem with one drive (or pool) and its lifecycle
// open -> acknowledged -> resolved. The alert module decides transitions; the
// store keeps them. At most one open-or-acknowledged alert exists per
// (drive_id, condition). Times are unix seconds. Plain value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// Where an alert stands for its owner. The page, /metrics, MQTT/Home
// Assistant and the notifications all render this one value, so no surface
// can call a problem an alarm while another keeps it quiet. A watch is an
// alert opened below the bar for telling (or not yet delivered): it is shown
// as "watching", never as an alarm.
enum class AlertStanding { kWatching, kNotified, kAcknowledged, kMuted, kResolved };

// `muted`: an override holds the alert's notifications at this moment
// (ResolvedOverrides::MutedUntil). An owner's acknowledgement outranks a mute
// (it is the later, more specific decision about this very alert).
AlertStanding StandingOf(const Alert& a, bool muted);
// "watching" | "notified" | "acknowledged" | "muted" | "resolved".
std::string_view StandingName(AlertStanding s);
// Whether surfaces that page people (Alertmanager, the Home Assistant problem
// sensor, the page's red badge) treat it as a problem the owner was told of:
// notified or acknowledged (acknowledging stops reminders, not the problem).
bool Alarming(AlertStanding s);

}  // namespace dp
