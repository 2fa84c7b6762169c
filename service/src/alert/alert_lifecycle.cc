#include "alert/alert_lifecycle.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "alert/alert_words.h"
#include "model/condition.h"

namespace dp {
namespace {

int SeverityRank(const std::string& s) {
  auto v = ParseSeverity(s);
  return v ? static_cast<int>(*v) : 0;
}

void MarkNotified(Alert& a, std::int64_t now) {
  a.last_notified_at = now;
  ++a.notify_count;
}

// True when a clear verdict's run is still worse than the single-run band
// the slowdown alert last fired with (the band in its evidence). The
// detector's baseline can move under an open alert: runs waiting in the open
// segment widen its spread, a tight start's segment joins it. At high noise
// its verdict then flips between slowdown and clear from run to run, and
// resolving on those flips re-opens the same alert weeks later (a series
// whose first runs came out high alerts against its young baseline, resolves
// on clears against a baseline widened by the waiting runs, and re-opens
// against the same first runs weeks later). Hysteresis: a slowdown alert resolves when the drive is back
// where the reference it was raised against puts healthy runs. A real drop
// that its baseline has not absorbed keeps its alert until the user
// re-baselines; a drive that recovers is back inside at once.
bool StillBeyondFiringBand(const Alert& a, const Verdict& v) {
  if (ConditionKindOf(a.condition) != ConditionKind::kSlowdown || !v.current) return false;
  // The alert's condition names one series: the verdict's metric is its own.
  const bool lower_is_better = v.LowerIsBetter();
  const std::optional<double> edge = lower_is_better ? a.band_high : a.band_low;
  if (!edge) return false;
  return lower_is_better ? *v.current > *edge : *v.current < *edge;
}

std::string EvidenceOf(const Verdict& v) {
  return VerdictToJson(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A watch: opened, never notified (AlertPolicy::persist_before_notify).
bool Watching(const Alert& a) { return a.notify_count == 0 && a.state != "resolved"; }

// When the watch's current stretch of firing began: its newest "watching"
// entry (written when it opened, and again when it fired after clearing).
std::int64_t WatchSince(const Alert& a) {
  const auto h =
      nlohmann::json::parse(a.history_json.empty() ? "[]" : a.history_json, nullptr, false);
  std::int64_t since = a.opened_at;
  if (!h.is_array()) return since;
  for (const auto& e : h)
    if (e.is_object() && e.value("what", "") == "watching")
      since = std::max(since, e.value("at", std::int64_t{0}));
  return since;
}

}  // namespace

AlertPolicy AlertPolicy::FromConfig(const AlertsConfig& c) {
  AlertPolicy p;
  p.resolve_after_clear_runs = c.resolve_after_clear_runs;
  p.first_reminder = std::chrono::hours(c.first_reminder_hours);
  p.max_reminder = std::chrono::hours(24 * c.max_reminder_days);
  p.persist_before_notify = std::chrono::hours(c.persist_before_notify_hours);
  return p;
}

bool DeferredKind(std::string_view condition) {
  const ConditionKind k = ConditionKindOf(condition);
  return k == ConditionKind::kSlowdown || k == ConditionKind::kPeer ||
         k == ConditionKind::kEnvironment;
}

void AddHistory(Alert& a, std::int64_t at, std::string_view what, const std::string& summary) {
  auto h = nlohmann::json::parse(a.history_json.empty() ? "[]" : a.history_json, nullptr, false);
  if (!h.is_array()) h = nlohmann::json::array();
  h.push_back({{"at", at}, {"what", what}, {"summary", summary}});
  if (h.size() > static_cast<std::size_t>(kAlertHistoryKept))
    h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(h.size() - kAlertHistoryKept));
  a.history_json = h.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

AlertDecision Resolve(const Alert& a, SysTime now, const std::string& resolution) {
  const std::int64_t t = ToUnixSeconds(now);
  AlertDecision d;
  d.write = AlertDecision::Write::kUpdate;
  d.alert = a;
  d.alert.state = "resolved";
  d.alert.resolved_at = t;
  d.alert.updated_at = t;
  d.alert.resolution = resolution;
  AddHistory(d.alert, t, "resolved", resolution);
  if (!Watching(a)) {
    MarkNotified(d.alert, t);
    d.notify = NotifyKind::kResolved;
  }
  return d;
}

std::string_view NotifyKindName(NotifyKind k) {
  switch (k) {
    case NotifyKind::kNone:
      return "none";
    case NotifyKind::kOpened:
      return "opened";
    case NotifyKind::kReminder:
      return "reminder";
    case NotifyKind::kEscalated:
      return "escalated";
    case NotifyKind::kResolved:
      return "resolved";
    case NotifyKind::kTest:
      return "test";
  }
  return "unknown";
}

std::optional<SysTime> NextReminderAt(const Alert& a, const AlertPolicy& policy) {
  if (a.state != "open" || policy.max_reminder.count() <= 0 || Watching(a)) return std::nullopt;
  std::int64_t last = a.last_notified_at.value_or(a.opened_at);
  int k = std::max(a.notify_count, 1);  // reminder k after k notifications
  std::int64_t wait = policy.first_reminder.count();
  for (int i = 1; i < k && wait < policy.max_reminder.count(); ++i) wait *= 2;
  wait = std::min<std::int64_t>(wait, policy.max_reminder.count());
  return FromUnixSeconds(last + wait);
}

AlertDecision CheckReminder(const Alert& a, SysTime now, const AlertPolicy& policy) {
  AlertDecision d;
  auto due = NextReminderAt(a, policy);
  if (!due || now < *due) return d;
  d.write = AlertDecision::Write::kUpdate;
  d.alert = a;
  d.alert.updated_at = ToUnixSeconds(now);
  MarkNotified(d.alert, ToUnixSeconds(now));
  d.notify = NotifyKind::kReminder;
  return d;
}

AlertDecision Update(const std::optional<Alert>& existing, const Verdict& v, SysTime now,
                     const AlertPolicy& policy) {
  AlertDecision d;
  const std::int64_t t = ToUnixSeconds(now);
  const bool active = existing && existing->state != "resolved";
  if (v.Firing()) {
    const bool critical = v.severity == Severity::kCritical;
    if (!active) {
      Alert a;
      a.drive_id = v.drive_id;
      a.condition = v.condition;
      a.severity = std::string(SeverityName(v.severity));
      a.state = "open";
      a.summary = v.summary;
      a.evidence_json = EvidenceOf(v);
      a.opened_summary = a.summary;
      a.opened_evidence_json = a.evidence_json;
      a.opened_at = t;
      a.updated_at = t;
      a.clear_streak = 0;
      a.band_low = v.band_low;
      a.band_high = v.band_high;
      a.words = WordsOf(v, a, t);
      d.write = AlertDecision::Write::kInsert;
      if (!critical && policy.persist_before_notify.count() > 0 && DeferredKind(v.condition)) {
        AddHistory(a, t, "watching", a.summary);
      } else {
        AddHistory(a, t, "opened", a.summary);
        MarkNotified(a, t);
        d.notify = NotifyKind::kOpened;
      }
      d.alert = std::move(a);
      return d;
    }
    Alert a = *existing;
    if (a.summary != v.summary) AddHistory(a, t, "refreshed", v.summary);
    a.summary = v.summary;
    a.evidence_json = EvidenceOf(v);
    a.updated_at = t;
    a.clear_streak = 0;
    a.band_low = v.band_low;
    a.band_high = v.band_high;
    d.write = AlertDecision::Write::kUpdate;
    const bool higher =
        SeverityRank(std::string(SeverityName(v.severity))) > SeverityRank(a.severity);
    if (higher) a.severity = std::string(SeverityName(v.severity));
    if (Watching(a)) {
      // A watch is notified once it has outlasted what housekeeping lasts,
      // firing all along: housekeeping that comes back weeks later, after
      // the watch had cleared, starts the wait again (WatchSince).
      const std::int64_t since = WatchSince(a);
      if (critical || t - since >= policy.persist_before_notify.count()) {
        AddHistory(a, t, "notified",
                   "still there " + std::to_string((t - since) / 3600) + " h after " +
                       (since == a.opened_at ? "it opened: " : "it fired again: ") + v.summary);
        MarkNotified(a, t);
        d.notify = NotifyKind::kOpened;
      }
    } else if (higher) {
      AddHistory(a, t, "escalated", v.summary);
      MarkNotified(a, t);
      d.notify = NotifyKind::kEscalated;
    } else if (auto due = NextReminderAt(a, policy); due && now >= *due) {
      MarkNotified(a, t);
      d.notify = NotifyKind::kReminder;
    }
    a.words = WordsOf(v, a, t);
    d.alert = std::move(a);
    return d;
  }
  if (!active) return d;
  // A clear run still beyond the band the alert fired with is a doubt.
  const VerdictKind kind =
      v.kind == VerdictKind::kClear && StillBeyondFiringBand(*existing, v)
          ? VerdictKind::kNeedsConfirmation
          : v.kind;
  switch (kind) {
    case VerdictKind::kClear: {
      Alert a = *existing;
      a.clear_streak += 1;
      a.updated_at = t;
      if (a.clear_streak >= ClearsToResolve(a.condition, policy.resolve_after_clear_runs)) {
        d = Resolve(a, now, "cleared: " + v.summary);
        d.alert.clear_streak = a.clear_streak;
        return d;
      }
      d.write = AlertDecision::Write::kUpdate;
      d.alert = std::move(a);
      return d;
    }
    case VerdictKind::kNeedsConfirmation:
      if (existing->clear_streak != 0) {
        d.write = AlertDecision::Write::kUpdate;
        d.alert = *existing;
        d.alert.clear_streak = 0;
        d.alert.updated_at = t;
      }
      return d;
    default:
      return d;
  }
}

Result<AlertDecision> Acknowledge(const Alert& a, SysTime now) {
  if (a.state == "resolved")
    return FailedPrecondition("alert " + std::to_string(a.id) + " is already resolved");
  AlertDecision d;
  if (a.state == "acknowledged") return d;
  d.write = AlertDecision::Write::kUpdate;
  d.alert = a;
  d.alert.state = "acknowledged";
  d.alert.acknowledged_at = ToUnixSeconds(now);
  d.alert.updated_at = ToUnixSeconds(now);
  return d;
}

}  // namespace dp
