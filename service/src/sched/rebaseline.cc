#include "sched/rebaseline.h"

#include "base/log.h"
#include "sched/run_evaluator.h"

namespace dp {

Status ValidateRebaselineTest(const std::string& test) {
  if (test.empty() || IsJudgedTest(test)) return Status::Ok();
  return InvalidArgument("test '" + test +
                         "' has no baseline to reset; give one of seq, zones, seek, random, "
                         "sweep (or none for every test)");
}

bool ClosedByRebaseline(const std::string& condition, const std::string& test) {
  for (const char* kind : {"slowdown", "trend"}) {
    const std::string prefix = std::string(kind) + ":";
    if (!condition.starts_with(prefix)) continue;
    if (test.empty()) return true;
    const std::string rest = condition.substr(prefix.size());
    return rest == test || rest.starts_with(test + ":");
  }
  return false;
}

Result<RebaselineOutcome> RequestRebaseline(Store& store, AlertRepository& alerts,
                                            RebaselineMark mark) {
  DP_RETURN_IF_ERROR(ValidateRebaselineTest(mark.test));
  if (mark.reason.empty()) mark.reason = "re-baseline requested";
  RebaselineOutcome out;
  DP_ASSIGN_OR_RETURN(mark.id, store.InsertRebaseline(mark));
  out.mark = mark;
  const std::string scope = mark.test.empty() ? "every test" : mark.test;
  LogInfo("rebaseline: drive " + mark.drive_id + " (" + scope + ") from " +
          FormatUtc(FromUnixSeconds(mark.at)) + ": " + mark.reason +
          (mark.who.empty() ? "" : " [" + mark.who + "]"));

  DP_ASSIGN_OR_RETURN(std::vector<Alert> active, alerts.ActiveAlerts());
  Status first_error;
  for (Alert a : active) {
    if (a.drive_id != mark.drive_id || !ClosedByRebaseline(a.condition, mark.test)) continue;
    a.state = "resolved";
    a.resolved_at = mark.at;
    a.updated_at = mark.at;
    a.clear_streak = 0;
    a.resolution = "re-baselined: " + mark.reason;
    Status s = alerts.UpdateAlert(a);
    if (!s.ok()) {
      LogError("rebaseline: alert " + std::to_string(a.id) + " not resolved: " + s.ToString());
      if (first_error.ok()) first_error = s;
      continue;
    }
    LogInfo("rebaseline: alert " + std::to_string(a.id) + " (" + a.condition +
            ") resolved: " + a.resolution);
    out.resolved.push_back(std::move(a));
  }
  if (!first_error.ok()) return first_error;
  return out;
}

Result<std::int64_t> BaselineSince(Store& store, const std::string& drive_id,
                                   const std::string& test) {
  DP_ASSIGN_OR_RETURN(std::optional<RebaselineMark> mark, store.LatestRebaseline(drive_id, test));
  return mark ? mark->at : std::int64_t{0};
}

}  // namespace dp
