#include "detect/memory_effects.h"

#include <utility>

namespace dp::detect {

Status MemoryEffects::Verdicts(const std::vector<Verdict>& verdicts) {
  return on_verdicts ? on_verdicts(verdicts) : Status::Ok();
}

Status MemoryEffects::MarkInterference(const InterferenceMark& mark) {
  history_.AddInterference(mark.drive_id, mark.run_id);
  return Status::Ok();
}

Status MemoryEffects::Rebaseline(const RebaselineMark& mark) {
  history_.AddRebaseline(mark.drive_id, mark.test, mark.at);
  if (on_rebaseline) on_rebaseline(mark);
  return Status::Ok();
}

Status MemoryEffects::Retest(const RetestRequest& request) {
  if (!asked_.insert(request.of_run).second) return Status::Ok();
  queued_.push_back(request);
  return Status::Ok();
}

Status MemoryEffects::MarkPeerJudged(std::int64_t run_id) {
  history_.AddPeerJudged(run_id);
  return Status::Ok();
}

std::vector<RetestRequest> MemoryEffects::TakeRetests() { return std::exchange(queued_, {}); }

}  // namespace dp::detect
