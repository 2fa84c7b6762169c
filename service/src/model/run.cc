#include "model/run.h"

namespace dp {

std::string_view RunOutcomeName(RunOutcome o) {
  switch (o) {
    case RunOutcome::kQueued: return "queued";
    case RunOutcome::kRunning: return "running";
    case RunOutcome::kOk: return "ok";
    case RunOutcome::kFailed: return "failed";
    case RunOutcome::kDeferred: return "deferred";
    case RunOutcome::kSkipped: return "skipped";
    case RunOutcome::kCancelled: return "cancelled";
  }
  return "unknown";
}

std::optional<RunOutcome> ParseRunOutcome(std::string_view s) {
  for (auto o : {RunOutcome::kQueued, RunOutcome::kRunning, RunOutcome::kOk, RunOutcome::kFailed,
                 RunOutcome::kDeferred, RunOutcome::kSkipped, RunOutcome::kCancelled}) {
    if (RunOutcomeName(o) == s) return o;
  }
  return std::nullopt;
}

}  // namespace dp
