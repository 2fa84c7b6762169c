#include "alert/alert_service.h"

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

}  // namespace

AlertService::AlertService(AlertRepository& repo, Notifier* notifier, const Clock& clock,
                           AlertServiceOptions options)
    : repo_(repo), notifier_(notifier), clock_(clock), options_(std::move(options)) {}

std::optional<std::int64_t> AlertService::MutedUntil(const Alert& a) const {
  if (!options_.muted_until) return std::nullopt;
  return options_.muted_until(a.drive_id, a.condition);
}

Result<std::optional<Alert>> AlertService::Apply(AlertDecision d,
                                                 const std::optional<Alert>& before) {
  if (d.write == AlertDecision::Write::kNothing) return std::optional<Alert>();
  const std::optional<std::int64_t> muted =
      d.notify != NotifyKind::kNone ? MutedUntil(d.alert) : std::nullopt;
  if (muted) {
    // Nothing is sent, so nothing counts as sent: reminders and the held
    // opening notification are reckoned from what really went out.
    d.alert.notify_count = before ? before->notify_count : 0;
    d.alert.last_notified_at = before ? before->last_notified_at : std::nullopt;
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
  if (muted) {
    LogInfo("alert #" + std::to_string(d.alert.id) + ": " + std::string(NotifyKindName(d.notify)) +
            " notification held: muted until " + FormatUtc(FromUnixSeconds(*muted)));
  } else if (d.notify != NotifyKind::kNone && notifier_ && options_.notify) {
    notifier_->Submit(MakeNotification(d.notify, d.alert, clock_.Now(), options_.host));
  }
  return std::optional<Alert>(d.alert);
}

Result<std::optional<Alert>> AlertService::OnVerdict(const Verdict& verdict) {
  std::lock_guard lock(mu_);
  // Only verdicts that can change an alert need the repository.
  if (!verdict.Firing() && verdict.kind != VerdictKind::kClear &&
      verdict.kind != VerdictKind::kNeedsConfirmation)
    return std::optional<Alert>();
  DP_ASSIGN_OR_RETURN(std::optional<Alert> existing,
                      repo_.OpenAlertFor(verdict.drive_id, verdict.condition));
  if (!existing && !verdict.Firing()) return std::optional<Alert>();
  return Apply(Update(existing, verdict, clock_.Now(), options_.policy), existing);
}

Status AlertService::OnVerdicts(const std::vector<Verdict>& verdicts) {
  Status first;
  for (const auto& v : verdicts) {
    auto r = OnVerdict(v);
    if (!r.ok() && first.ok()) first = r.status();
  }
  return first;
}

Status AlertService::CheckReminders() {
  std::lock_guard lock(mu_);
  DP_ASSIGN_OR_RETURN(std::vector<Alert> active, repo_.ActiveAlerts());
  Status first;
  for (const auto& a : active) {
    // A muted alert waits quietly (no reminder is owed while it is held).
    if (MutedUntil(a)) continue;
    AlertDecision d = CheckReminder(a, clock_.Now(), options_.policy);
    if (a.state == "open" && a.notify_count == 0) {
      // Opened under a mute: announced once the mute is over.
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
  std::lock_guard lock(mu_);
  DP_ASSIGN_OR_RETURN(std::optional<Alert> a, repo_.GetAlert(id));
  if (!a) return NotFound("alert " + std::to_string(id) + " does not exist");
  DP_ASSIGN_OR_RETURN(AlertDecision d, dp::Acknowledge(*a, clock_.Now()));
  if (d.write == AlertDecision::Write::kNothing) return *a;
  DP_RETURN_IF_ERROR(repo_.UpdateAlert(d.alert));
  LogInfo("alert #" + std::to_string(id) + " acknowledged");
  return d.alert;
}

Result<std::vector<Alert>> AlertService::ResolveActive(
    const std::function<bool(const Alert&)>& match, const std::string& resolution,
    std::int64_t at) {
  std::lock_guard lock(mu_);
  return ResolveActiveAlerts(repo_, match, resolution, at);
}

bool ClosedByRebaseline(const std::string& condition, const std::string& test) {
  const ConditionKind kind = ConditionKindOf(condition);
  if (kind != ConditionKind::kSlowdown && kind != ConditionKind::kTrend) return false;
  if (test.empty()) return true;
  // "KIND:TEST:SERIES:METRIC": the test is the key's second part.
  const std::string rest = condition.substr(condition.find(':') + 1);
  return rest.substr(0, rest.find(':')) == test;
}

Result<RebaselineOutcome> AlertService::Rebaseline(RebaselineMark mark) {
  std::lock_guard lock(mu_);
  if (mark.reason.empty()) mark.reason = "re-baseline requested";
  RebaselineOutcome out;
  DP_ASSIGN_OR_RETURN(mark.id, repo_.InsertRebaseline(mark));
  out.mark = mark;
  const std::string scope = mark.test.empty() ? "every test" : mark.test;
  LogInfo("rebaseline: drive " + mark.drive_id + " (" + scope + ") from " +
          FormatUtc(FromUnixSeconds(mark.at)) + ": " + mark.reason +
          (mark.who.empty() ? "" : " [" + mark.who + "]"));
  auto match = [&mark](const Alert& a) {
    return a.drive_id == mark.drive_id && ClosedByRebaseline(a.condition, mark.test);
  };
  DP_ASSIGN_OR_RETURN(out.resolved,
                      ResolveActiveAlerts(repo_, match, "re-baselined: " + mark.reason, mark.at));
  return out;
}

}  // namespace dp
