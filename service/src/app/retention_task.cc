#include "app/retention_task.h"

#include <chrono>

#include "base/log.h"
#include "store/store.h"

namespace dp {

RetentionTask::RetentionTask(Store& store, const Clock& clock, RetentionConfig config)
    : store_(store), clock_(clock), config_(config) {}

RetentionTask::~RetentionTask() { Stop(); }

void RetentionTask::Start() {
  if (!config_.enabled || thread_.joinable()) return;
  thread_ = std::thread([this] { Loop(); });
}

void RetentionTask::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int RetentionTask::passes() const {
  std::lock_guard lock(mu_);
  return passes_;
}

void RetentionTask::Loop() {
  while (true) {
    auto report = store_.ApplyRetention(config_, ToUnixSeconds(clock_.Now()));
    if (report.ok())
      LogInfo("retention: " + report->Summary());
    else
      LogError("retention: " + report.status().ToString() + " (retried in " +
               std::to_string(config_.interval_hours) + " h)");
    std::unique_lock lock(mu_);
    ++passes_;
    if (cv_.wait_for(lock, std::chrono::hours(config_.interval_hours), [this] { return stop_; }))
      return;
  }
}

}  // namespace dp
