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

Result<std::optional<Alert>> AlertService::Apply(AlertDecision d) {
  if (d.write == AlertDecision::Write::kNothing) return std::optional<Alert>();
  if (d.write == AlertDecision::Write::kInsert) {
    DP_ASSIGN_OR_RETURN(d.alert.id, repo_.InsertAlert(d.alert));
    LogWarning("alert #" + std::to_string(d.alert.id) + " opened: [" + d.alert.severity + "] " +
               d.alert.summary);
  } else {
    DP_RETURN_IF_ERROR(repo_.UpdateAlert(d.alert));
    if (d.notify == NotifyKind::kResolved)
      LogInfo("alert #" + std::to_string(d.alert.id) + " resolved: " + d.alert.summary);
  }
  if (d.notify != NotifyKind::kNone && notifier_ && options_.notify)
    notifier_->Submit(MakeNotification(d.notify, d.alert, clock_.Now(), options_.host));
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
  return Apply(Update(existing, verdict, clock_.Now(), options_.policy));
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
    auto r = Apply(CheckReminder(a, clock_.Now(), options_.policy));
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
