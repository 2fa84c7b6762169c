#include "runs/store_scheduler_store.h"

namespace dp {

Result<std::vector<Run>> StoreSchedulerStore::UnfinishedRuns() {
  std::vector<Run> out;
  for (RunOutcome o : {RunOutcome::kQueued, RunOutcome::kDeferred, RunOutcome::kRunning}) {
    RunFilter f;
    f.outcome = o;
    f.limit = 0;
    DP_ASSIGN_OR_RETURN(auto runs, store_.ListRuns(f));
    out.insert(out.end(), runs.begin(), runs.end());
  }
  return out;
}

}  // namespace dp
