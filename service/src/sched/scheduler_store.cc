#include "sched/scheduler_store.h"

namespace dp {

Result<std::int64_t> MemorySchedulerStore::InsertRun(const Run& run) {
  MutexLock lock(mu_);
  Run r = run;
  r.id = next_id_++;
  runs_[r.id] = r;
  return r.id;
}

Status MemorySchedulerStore::UpdateRun(const Run& run) {
  MutexLock lock(mu_);
  auto it = runs_.find(run.id);
  if (it == runs_.end()) return NotFound("run " + std::to_string(run.id));
  it->second = run;
  return Status::Ok();
}

Result<std::optional<Run>> MemorySchedulerStore::GetRun(std::int64_t id) {
  MutexLock lock(mu_);
  auto it = runs_.find(id);
  if (it == runs_.end()) return std::optional<Run>();
  return std::optional<Run>(it->second);
}

Result<std::vector<Run>> MemorySchedulerStore::UnfinishedRuns() {
  MutexLock lock(mu_);
  std::vector<Run> out;
  for (const auto& [id, r] : runs_) {
    if (r.outcome == RunOutcome::kQueued || r.outcome == RunOutcome::kDeferred ||
        r.outcome == RunOutcome::kRunning)
      out.push_back(r);
  }
  return out;
}

Status MemorySchedulerStore::SetState(const std::string& key, const std::string& value) {
  MutexLock lock(mu_);
  state_[key] = value;
  return Status::Ok();
}

Result<std::optional<std::string>> MemorySchedulerStore::GetState(const std::string& key) {
  MutexLock lock(mu_);
  auto it = state_.find(key);
  if (it == state_.end()) return std::optional<std::string>();
  return std::optional<std::string>(it->second);
}

std::vector<Run> MemorySchedulerStore::AllRuns() const {
  MutexLock lock(mu_);
  std::vector<Run> out;
  for (const auto& [id, r] : runs_) out.push_back(r);
  return out;
}

}  // namespace dp
