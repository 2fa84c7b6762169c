#include "runs/zfs_sampling_task.h"

#include "base/log.h"

namespace dp {

ZfsSamplingTask::ZfsSamplingTask(Config config, CommandRunner& runner, Store& store,
                                 const Clock& clock, std::chrono::milliseconds period,
                                 VerdictsFn on_verdicts)
    : config_(std::move(config)),
      runner_(runner),
      store_(store),
      clock_(clock),
      period_(period),
      on_verdicts_(std::move(on_verdicts)) {}

ZfsSamplingTask::~ZfsSamplingTask() { Stop(); }

void ZfsSamplingTask::Start() {
  if (period_.count() <= 0 || thread_.joinable()) return;
  thread_ = std::thread([this] { Loop(); });
}

void ZfsSamplingTask::UpdatePools(std::vector<Pool> pools) {
  {
    std::lock_guard lock(mu_);
    pools_ = std::move(pools);
  }
  cv_.notify_all();
}

void ZfsSamplingTask::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int ZfsSamplingTask::samplings() const {
  std::lock_guard lock(mu_);
  return samplings_;
}

std::vector<std::string> ZfsSamplingTask::warnings_logged() const {
  std::lock_guard lock(mu_);
  return {warned_.begin(), warned_.end()};
}

void ZfsSamplingTask::Loop() {
  {
    // Nothing to sample before discovery has said which pools there are.
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return stop_ || pools_.has_value(); });
    if (stop_) return;
  }
  while (true) {
    std::vector<Pool> pools;
    {
      std::lock_guard lock(mu_);
      pools = *pools_;
    }
    auto report =
        SampleZfsLatency(config_, runner_, store_, pools, ToUnixSeconds(clock_.Now()), &memory_);
    if (!report.ok()) {
      LogError("zfs sampling: " + report.status().ToString());
    } else {
      for (const auto& w : report->warnings) {
        bool fresh = false;
        {
          std::lock_guard lock(mu_);
          fresh = warned_.size() < 64 && warned_.insert(w).second;
        }
        if (fresh) LogWarning("zfs sampling: " + w + " (not repeated)");
      }
      if (on_verdicts_ && !report->verdicts.empty()) on_verdicts_(report->verdicts);
    }
    std::unique_lock lock(mu_);
    ++samplings_;
    if (cv_.wait_for(lock, period_, [this] { return stop_; })) return;
  }
}

}  // namespace dp
