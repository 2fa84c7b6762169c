// SchedulerStore: the narrow slice of the database the scheduler needs —
// runs and its small key/value state — so the scheduler can be tested and
// previewed without SQLite. StoreSchedulerStore (runs/store_scheduler_store.h)
// forwards to the real Store; MemorySchedulerStore keeps everything in memory
// (tests, `--show-schedule` without a database). Implementations are
// thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/thread_annotations.h"
#include "model/run.h"

namespace dp {

class SchedulerStore {
 public:
  virtual ~SchedulerStore() = default;
  virtual Result<std::int64_t> InsertRun(const Run& run) = 0;  // run.id ignored
  virtual Status UpdateRun(const Run& run) = 0;
  virtual Result<std::optional<Run>> GetRun(std::int64_t id) = 0;
  // Runs left queued, deferred or running (by a daemon that stopped abruptly).
  virtual Result<std::vector<Run>> UnfinishedRuns() = 0;
  virtual Status SetState(const std::string& key, const std::string& value) = 0;
  virtual Result<std::optional<std::string>> GetState(const std::string& key) = 0;
};

class MemorySchedulerStore final : public SchedulerStore {
 public:
  Result<std::int64_t> InsertRun(const Run& run) override;
  Status UpdateRun(const Run& run) override;
  Result<std::optional<Run>> GetRun(std::int64_t id) override;
  Result<std::vector<Run>> UnfinishedRuns() override;
  Status SetState(const std::string& key, const std::string& value) override;
  Result<std::optional<std::string>> GetState(const std::string& key) override;

  // Every run ever inserted, in id order, as last updated.
  std::vector<Run> AllRuns() const;

 private:
  mutable Mutex mu_;
  std::map<std::int64_t, Run> runs_ GUARDED_BY(mu_);
  std::map<std::string, std::string> state_ GUARDED_BY(mu_);
  std::int64_t next_id_ GUARDED_BY(mu_) = 1;
};

}  // namespace dp
