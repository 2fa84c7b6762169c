// StoreSchedulerStore: SchedulerStore over the daemon's SQLite Store (runs
// table, scheduler_state key/values). Holds a reference; the Store must
// outlive it. Thread-safe as the Store is.
#pragma once

#include "sched/scheduler_store.h"
#include "store/store.h"

namespace dp {

class StoreSchedulerStore final : public SchedulerStore {
 public:
  explicit StoreSchedulerStore(Store& store) : store_(store) {}
  Result<std::int64_t> InsertRun(const Run& run) override { return store_.InsertRun(run); }
  Status UpdateRun(const Run& run) override { return store_.UpdateRun(run); }
  Result<std::optional<Run>> GetRun(std::int64_t id) override { return store_.GetRun(id); }
  Result<std::vector<Run>> UnfinishedRuns() override;
  Status SetState(const std::string& key, const std::string& value) override {
    return store_.SetSchedulerState(key, value);
  }
  Result<std::optional<std::string>> GetState(const std::string& key) override {
    return store_.GetSchedulerState(key);
  }

 private:
  Store& store_;
};

}  // namespace dp
