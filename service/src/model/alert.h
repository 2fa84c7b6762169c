// Alert: one problem with one drive (or pool) and its lifecycle
// open -> acknowledged -> resolved. The alert module decides transitions; the
// store keeps them. At most one open-or-acknowledged alert exists per
// (drive_id, condition). Times are unix seconds. Plain value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

// One rule's series gathered into a drive's speed alert (alert/alert_events.h):
// its own lifecycle state and the typed facts of its latest verdict that the
// lifecycle and the alert's words read.
struct AlertMember {
  std::string condition;  // the verdict's own: "slowdown:seq:qd8-1m:mb_per_s", "trend:...", "peer:..."
  std::string state = "open";  // open | resolved
  std::string severity = "warning";
  int clear_streak = 0;
  std::int64_t opened_at = 0;
  std::string test, series, metric, unit;
  std::string summary;
  std::optional<double> current, reference;  // the judged value and what it is compared with
  std::optional<double> change_percent;      // + = worse
  std::optional<double> slope_percent_per_month;
  std::optional<double> band_low, band_high;  // the single-run band it last fired with
  int baseline_runs = 0;
  std::int64_t at = 0;       // when its latest verdict's sample was taken
  std::string verdict_json;  // that verdict whole (VerdictToJson), for people only
};

// What an event alert keeps between evaluations, typed. Stored as one JSON
// document (alerts.event_state), written and read only by the functions below.
struct AlertEventState {
  std::vector<AlertMember> members;
  std::optional<std::int64_t> last_fired_at;
  // Every member has cleared since the event last fired (a doubt since does
  // not undo it): a watch that fires after that waits persist_before_notify again.
  bool cleared_since_fired = false;
};
std::string EventStateToJson(const AlertEventState& s);
// "" or a document that is not one gives an empty state.
AlertEventState EventStateFromJson(std::string_view text);

// What an alert says to its owner (alert/alert_words.h renders it).
struct AlertWords {
  std::string headline;    // "sdb reads 11% slower than it used to, and slower each month"
  std::string confidence;  // "Sure (3 rules, 6 weeks)"
  std::string advice;      // what to do next
};

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
  // An event alert's members and timers (empty for an alert of one verdict).
  AlertEventState event;
  // A member's single-run band it last fired with (alert_lifecycle.h's
  // hysteresis); lives in AlertMember between evaluations, not stored alone.
  std::optional<double> band_low, band_high;
  AlertWords words;
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
