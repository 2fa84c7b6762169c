#include "runs/rebaseline.h"

#include "model/test_catalog.h"

namespace dp {

Status ValidateRebaselineTest(const std::string& test) {
  if (test.empty() || IsJudgedTest(test)) return Status::Ok();
  return InvalidArgument("test '" + test + "' has no baseline to reset; give one of " +
                         ListTests([](const TestInfo& t) { return t.judged; }) +
                         " (or none for every test)");
}

Result<RebaselineOutcome> RequestRebaseline(AlertService& alerts, RebaselineMark mark) {
  DP_RETURN_IF_ERROR(ValidateRebaselineTest(mark.test));
  return alerts.Rebaseline(std::move(mark));
}

Result<std::int64_t> BaselineSince(Store& store, const std::string& drive_id,
                                   const std::string& test) {
  DP_ASSIGN_OR_RETURN(std::optional<RebaselineMark> mark, store.LatestRebaseline(drive_id, test));
  return mark ? mark->at : std::int64_t{0};
}

}  // namespace dp
