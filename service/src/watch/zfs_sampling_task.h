// ZfsSamplingTask: the daemon's thread that samples ZFS's own signals of
// every pool member (SampleZfsLatency) every inventory.zfs_sample_minutes,
// from the pools of the latest discovery pass (UpdatePools). The first
// sampling follows the first UpdatePools; 0 minutes never starts the thread.
// It keeps the previous cumulative `zpool iostat -w` histograms
// (ZfsHistogramMemory) so each sample stores the disk waits since the one
// before, hands the verdicts to `on_verdicts`, and logs each distinct
// warning once (bounded). Thread-safe; the runner, store and clock must
// outlive it, and on_verdicts is called on the task's thread.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/periodic_thread.h"
#include "base/thread_annotations.h"
#include "config/config.h"
#include "model/pool.h"
#include "model/verdict.h"
#include "watch/tool_pass.h"
#include "watch/zfs_latency_sampler.h"
#include "store/store.h"

namespace dp {

class ZfsSamplingTask {
 public:
  using VerdictsFn = std::function<void(const std::vector<Verdict>&)>;
  // period: normally minutes(config.inventory.zfs_sample_minutes); zero or
  // less: Start() does nothing.
  ZfsSamplingTask(Config config, CommandRunner& runner, Store& store, const Clock& clock,
                  std::chrono::milliseconds period, VerdictsFn on_verdicts = {});
  ~ZfsSamplingTask();  // Stop()
  ZfsSamplingTask(const ZfsSamplingTask&) = delete;
  ZfsSamplingTask& operator=(const ZfsSamplingTask&) = delete;

  void Start();
  // The pools (members mapped to drives) the next samplings read.
  void UpdatePools(std::vector<Pool> pools);
  // Waits for a sampling in progress (about 5 s per pool). Idempotent.
  void Stop();

  int samplings() const;  // passes completed since Start
  std::vector<std::string> warnings_logged() const;

 private:
  void Pass();

  const ToolPass tools_;
  const std::chrono::milliseconds period_;
  const VerdictsFn on_verdicts_;
  mutable Mutex mu_;
  std::optional<std::vector<Pool>> pools_ GUARDED_BY(mu_);
  int samplings_ GUARDED_BY(mu_) = 0;
  std::set<std::string> warned_ GUARDED_BY(mu_);
  ZfsHistogramMemory memory_;  // the task's thread only
  PeriodicThread thread_;
};

}  // namespace dp
