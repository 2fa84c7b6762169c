// RetentionTask: the daemon's thread that keeps the database small. It runs
// Store::ApplyRetention once at start-up and then every
// retention.interval_hours, and logs what each pass removed (or why it
// failed: a pass that fails, e.g. on a full disk, is retried at the next
// interval and changes nothing it had not committed).
#pragma once

#include <mutex>

#include "base/clock.h"
#include "base/periodic_thread.h"
#include "base/thread_annotations.h"
#include "config/retention_config.h"

namespace dp {

class Store;

class RetentionTask {
 public:
  RetentionTask(Store& store, const Clock& clock, RetentionConfig config);
  ~RetentionTask();  // Stop()
  RetentionTask(const RetentionTask&) = delete;
  RetentionTask& operator=(const RetentionTask&) = delete;

  void Start();
  // Waits for a pass in progress to finish (well under a second on a
  // database kept by earlier passes). Idempotent.
  void Stop();
  int passes() const;

 private:
  void Pass();

  Store& store_;
  const Clock& clock_;
  const RetentionConfig config_;
  mutable Mutex mu_;
  int passes_ GUARDED_BY(mu_) = 0;
  PeriodicThread thread_;
};

}  // namespace dp
