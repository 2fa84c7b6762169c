#include "sched/rebaseline.h"

#include "base/log.h"
#include "model/test_catalog.h"
#include "sched/run_evaluator.h"

namespace dp {

Status ValidateRebaselineTest(const std::string& test) {
  if (test.empty() || IsJudgedTest(test)) return Status::Ok();
  return InvalidArgument("test '" + test + "' has no baseline to reset; give one of " +
                         ListTests([](const TestInfo& t) { return t.judged; }) +
                         " (or none for every test)");
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
                                            RebaselineMark mark, AlertService* service) {
  DP_RETURN_IF_ERROR(ValidateRebaselineTest(mark.test));
  if (mark.reason.empty()) mark.reason = "re-baseline requested";
  RebaselineOutcome out;
  DP_ASSIGN_OR_RETURN(mark.id, store.InsertRebaseline(mark));
  out.mark = mark;
  const std::string scope = mark.test.empty() ? "every test" : mark.test;
  LogInfo("rebaseline: drive " + mark.drive_id + " (" + scope + ") from " +
          FormatUtc(FromUnixSeconds(mark.at)) + ": " + mark.reason +
          (mark.who.empty() ? "" : " [" + mark.who + "]"));

  auto match = [&mark](const Alert& a) {
    return a.drive_id == mark.drive_id && ClosedByRebaseline(a.condition, mark.test);
  };
  const std::string resolution = "re-baselined: " + mark.reason;
  DP_ASSIGN_OR_RETURN(out.resolved,
                      service ? service->ResolveActive(match, resolution, mark.at)
                              : ResolveActiveAlerts(alerts, match, resolution, mark.at));
  return out;
}

Result<std::int64_t> BaselineSince(Store& store, const std::string& drive_id,
                                   const std::string& test) {
  DP_ASSIGN_OR_RETURN(std::optional<RebaselineMark> mark, store.LatestRebaseline(drive_id, test));
  return mark ? mark->at : std::int64_t{0};
}

}  // namespace dp
