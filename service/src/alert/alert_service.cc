#include "alert/alert_service.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "alert/alert_events.h"
#include "base/log.h"
#include "model/condition.h"

namespace dp {
namespace {

Result<std::vector<Alert>> ResolveActiveAlerts(AlertRepository& repo,
                                               const std::function<bool(const Alert&)>& match,
                                               const std::string& resolution, std::int64_t at) {
  DP_ASSIGN_OR_RETURN(std::vector<Alert> active, repo.ActiveAlerts());
  std::vector<Alert> resolved;
  Status first_error;
  for (Alert a : active) {
    if (!match(a)) continue;
    a.state = "resolved";
    a.resolved_at = at;
    a.updated_at = at;
    a.clear_streak = 0;
    a.resolution = resolution;
    AddHistory(a, at, "resolved", resolution);
    Status s = repo.UpdateAlert(a);
    if (!s.ok()) {
      LogError("alert #" + std::to_string(a.id) + " not resolved: " + s.ToString());
      if (first_error.ok()) first_error = s;
      continue;
    }
    LogInfo("alert #" + std::to_string(a.id) + " (" + a.condition + ") resolved: " + resolution);
    resolved.push_back(std::move(a));
  }
  if (!first_error.ok()) return first_error;
  return resolved;
}

constexpr const char* kHeldOpening = "held";

// True when the alert's opening notification was held by a mute and has not
// gone out since (its history: "held" after the last "opened"/"notified").
bool OpeningHeld(const Alert& a) {
  const auto h = nlohmann::json::parse(a.history_json.empty() ? "[]" : a.history_json, nullptr,
                                       false);
  if (!h.is_array()) return false;
  bool held = false;
  for (const auto& e : h) {
    if (!e.is_object()) continue;
    const std::string what = e.value("what", "");
    if (what == kHeldOpening) held = true;
    if (what == "opened" || what == "notified") held = false;
  }
  return held;
}

}  // namespace

AlertService::AlertService(AlertRepository& repo, Notifier* notifier, const Clock& clock,
                           AlertServiceOptions options)
    : repo_(repo), notifier_(notifier), clock_(clock), options_(std::move(options)) {}

void AlertService::Changed() const {
  if (options_.on_change) options_.on_change();
}

std::optional<std::int64_t> AlertService::MutedUntil(const Alert& a) const {
  if (!options_.muted_until) return std::nullopt;
  return options_.muted_until(a.drive_id, a.condition);
}

Result<std::optional<Alert>> AlertService::Apply(AlertDecision d,
                                                 const std::optional<Alert>& before) {
  if (d.write == AlertDecision::Write::kNothing) return std::optional<Alert>();
  const std::optional<std::int64_t> muted =
      d.notify != NotifyKind::kNone ? MutedUntil(d.alert) : std::nullopt;
  const std::string until = muted ? FormatUtc(FromUnixSeconds(muted.value_or(0))) : "";
  if (muted) {
    // Nothing is sent, so nothing counts as sent: reminders and the held
    // opening notification are reckoned from what really went out.
    d.alert.notify_count = before ? before->notify_count : 0;
    d.alert.last_notified_at = before ? before->last_notified_at : std::nullopt;
    if (d.notify == NotifyKind::kOpened)
      AddHistory(d.alert, ToUnixSeconds(clock_.Now()), kHeldOpening,
                 "opening notification held: muted until " + until);
  }
  if (d.write == AlertDecision::Write::kInsert) {
    DP_ASSIGN_OR_RETURN(d.alert.id, repo_.InsertAlert(d.alert));
    LogWarning("alert #" + std::to_string(d.alert.id) + " opened: [" + d.alert.severity + "] " +
               d.alert.summary);
  } else {
    DP_RETURN_IF_ERROR(repo_.UpdateAlert(d.alert));
    if (d.notify == NotifyKind::kResolved)
      LogInfo("alert #" + std::to_string(d.alert.id) + " resolved: " + d.alert.summary);
  }
  Changed();
  if (muted) {
    LogInfo("alert #" + std::to_string(d.alert.id) + ": " + std::string(NotifyKindName(d.notify)) +
            " notification held: muted until " + until);
  } else if (d.notify != NotifyKind::kNone && notifier_ && options_.notify) {
    notifier_->Submit(MakeNotification(d.notify, d.alert, clock_.Now(), options_.host));
  }
  return std::optional<Alert>(d.alert);
}

Result<std::optional<Alert>> AlertService::OnVerdict(const Verdict& verdict) {
  std::optional<Alert> stored;
  DP_RETURN_IF_ERROR(ApplyLocked({verdict}, &stored));
  return stored;
}

Status AlertService::OnVerdicts(const std::vector<Verdict>& verdicts) {
  return ApplyLocked(verdicts, nullptr);
}

Status AlertService::ApplyLocked(const std::vector<Verdict>& verdicts, std::optional<Alert>* last) {
  MutexLock lock(mu_);
  AlertLookup lookup;
  lookup.find = [this](const std::string& drive_id, const std::string& condition) REQUIRES(mu_) {
    return repo_.OpenAlertFor(drive_id, condition);
  };
  lookup.last_resolved = [this](const std::string& drive_id,
                                const std::string& condition) REQUIRES(mu_) {
    return repo_.LastResolvedFor(drive_id, condition);
  };
  // A drive slower while a SMART alert of it is active is no housekeeping.
  lookup.urgent = [this](const std::string& drive_id) REQUIRES(mu_) -> Result<bool> {
    DP_ASSIGN_OR_RETURN(std::vector<Alert> active, repo_.ActiveAlerts());
    return std::any_of(active.begin(), active.end(), [&](const Alert& a) {
      return a.drive_id == drive_id && ConditionKindOf(a.condition) == ConditionKind::kSmart;
    });
  };
  return ApplyVerdicts(verdicts, lookup, clock_.Now(), options_.policy,
                       [this, last](AlertDecision d) REQUIRES(mu_) -> Status {
                         // The alert as stored, for a held notification's
                         // counters (only looked up when one is held).
                         std::optional<Alert> before;
                         if (d.write == AlertDecision::Write::kUpdate &&
                             d.notify != NotifyKind::kNone && MutedUntil(d.alert)) {
                           DP_ASSIGN_OR_RETURN(before, repo_.GetAlert(d.alert.id));
                         }
                         DP_ASSIGN_OR_RETURN(std::optional<Alert> a,
                                             Apply(std::move(d), before));
                         if (last && a) *last = std::move(a);
                         return Status::Ok();
                       });
}

Status AlertService::CheckReminders() {
  MutexLock lock(mu_);
  DP_ASSIGN_OR_RETURN(std::vector<Alert> active, repo_.ActiveAlerts());
  Status first;
  for (const auto& a : active) {
    // A muted alert waits quietly (no reminder is owed while it is held).
    if (MutedUntil(a)) continue;
    AlertDecision d = CheckReminder(a, clock_.Now(), options_.policy);
    if (a.state == "open" && a.notify_count == 0 && OpeningHeld(a)) {
      // Opened under a mute: announced once the mute is over. (A watch,
      // never notified either, is not owed one: alert_lifecycle.h.)
      d.write = AlertDecision::Write::kUpdate;
      d.alert = a;
      d.alert.notify_count = 1;
      d.alert.last_notified_at = ToUnixSeconds(clock_.Now());
      d.notify = NotifyKind::kOpened;
    }
    auto r = Apply(std::move(d), a);
    if (!r.ok() && first.ok()) first = r.status();
  }
  return first;
}

Result<Alert> AlertService::Acknowledge(std::int64_t id) {
  MutexLock lock(mu_);
  DP_ASSIGN_OR_RETURN(std::optional<Alert> a, repo_.GetAlert(id));
  if (!a) return NotFound("alert " + std::to_string(id) + " does not exist");
  DP_ASSIGN_OR_RETURN(AlertDecision d, dp::Acknowledge(*a, clock_.Now()));
  if (d.write == AlertDecision::Write::kNothing) return *a;
  DP_RETURN_IF_ERROR(repo_.UpdateAlert(d.alert));
  LogInfo("alert #" + std::to_string(id) + " acknowledged");
  Changed();
  return d.alert;
}

Result<std::vector<Alert>> AlertService::ResolveActive(
    const std::function<bool(const Alert&)>& match, const std::string& resolution,
    std::int64_t at) {
  MutexLock lock(mu_);
  auto resolved = ResolveActiveAlerts(repo_, match, resolution, at);
  // Even a failure may have resolved some of them.
  Changed();
  return resolved;
}

bool ClosedByRebaseline(const std::string& condition, const std::string& test) {
  const ConditionKind kind = ConditionKindOf(condition);
  if (kind != ConditionKind::kSlowdown && kind != ConditionKind::kTrend) return false;
  if (test.empty()) return true;
  // "KIND:TEST:SERIES:METRIC": the test is the key's second part.
  const std::string rest = condition.substr(condition.find(':') + 1);
  return rest.substr(0, rest.find(':')) == test;
}

bool ClosedByRebaseline(const Alert& a, const std::string& test) {
  if (a.condition != kDriveSpeedEvent)
    return ClosedByRebaseline(a.condition, test);
  // A drive's event: when it holds a member of the test (any member of a
  // slowdown or trend kind when every test is re-baselined).
  return EventHasMember(a, [&](const std::string& condition, const std::string& member_test) {
    return ClosedByRebaseline(condition, "") && (test.empty() || member_test == test);
  });
}

Result<RebaselineOutcome> AlertService::Rebaseline(RebaselineMark mark) {
  MutexLock lock(mu_);
  if (mark.reason.empty()) mark.reason = "re-baseline requested";
  RebaselineOutcome out;
  DP_ASSIGN_OR_RETURN(mark.id, repo_.InsertRebaseline(mark));
  out.mark = mark;
  const std::string scope = mark.test.empty() ? "every test" : mark.test;
  LogInfo("rebaseline: drive " + mark.drive_id + " (" + scope + ") from " +
          FormatUtc(FromUnixSeconds(mark.at)) + ": " + mark.reason +
          (mark.who.empty() ? "" : " [" + mark.who + "]"));
  auto match = [&mark](const Alert& a) {
    return a.drive_id == mark.drive_id && ClosedByRebaseline(a, mark.test);
  };
  auto resolved = ResolveActiveAlerts(repo_, match, "re-baselined: " + mark.reason, mark.at);
  Changed();
  DP_ASSIGN_OR_RETURN(out.resolved, std::move(resolved));
  return out;
}

}  // namespace dp
