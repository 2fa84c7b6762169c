#include "app/retention_task.h"

#include <chrono>

#include "base/log.h"
#include "store/store.h"

namespace dp {

RetentionTask::RetentionTask(Store& store, const Clock& clock, RetentionConfig config)
    : store_(store), clock_(clock), config_(config) {}

RetentionTask::~RetentionTask() { Stop(); }

void RetentionTask::Start() {
  if (config_.enabled) thread_.Start(std::chrono::hours(config_.interval_hours), [this] { Pass(); });
}

void RetentionTask::Stop() { thread_.Stop(); }

int RetentionTask::passes() const {
  MutexLock lock(mu_);
  return passes_;
}

void RetentionTask::Pass() {
  auto report = store_.ApplyRetention(config_, ToUnixSeconds(clock_.Now()));
  if (report.ok())
    LogInfo("retention: " + report->Summary());
  else
    LogError("retention: " + report.status().ToString() + " (retried in " +
             std::to_string(config_.interval_hours) + " h)");
  MutexLock lock(mu_);
  ++passes_;
}

}  // namespace dp
