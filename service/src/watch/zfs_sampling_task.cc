#include "watch/zfs_sampling_task.h"

#include "base/log.h"

namespace dp {

ZfsSamplingTask::ZfsSamplingTask(Config config, CommandRunner& runner, Store& store,
                                 const Clock& clock, std::chrono::milliseconds period,
                                 VerdictsFn on_verdicts)
    : tools_{std::move(config), runner, store, clock},
      period_(period),
      on_verdicts_(std::move(on_verdicts)) {}

ZfsSamplingTask::~ZfsSamplingTask() { Stop(); }

void ZfsSamplingTask::Start() {
  if (period_.count() > 0) thread_.Start(period_, [this] { Pass(); });
}

void ZfsSamplingTask::UpdatePools(std::vector<Pool> pools) {
  bool first = false;
  {
    MutexLock lock(mu_);
    first = !pools_.has_value();
    pools_ = std::move(pools);
  }
  // Nothing was sampled before discovery said which pools there are: the
  // first list starts the first sampling, later ones wait for their turn.
  if (first) thread_.Wake();
}

void ZfsSamplingTask::Stop() { thread_.Stop(); }

int ZfsSamplingTask::samplings() const {
  MutexLock lock(mu_);
  return samplings_;
}

std::vector<std::string> ZfsSamplingTask::warnings_logged() const {
  MutexLock lock(mu_);
  return {warned_.begin(), warned_.end()};
}

void ZfsSamplingTask::Pass() {
  std::vector<Pool> pools;
  {
    MutexLock lock(mu_);
    if (!pools_) return;
    pools = *pools_;
  }
  auto report = SampleZfsLatency(tools_.config, tools_.runner, tools_.store, pools,
                                 ToUnixSeconds(tools_.clock.Now()), &memory_);
  if (!report.ok()) {
    LogError("zfs sampling: " + report.status().ToString());
  } else {
    for (const auto& w : report->warnings) {
      bool fresh = false;
      {
        MutexLock lock(mu_);
        fresh = warned_.size() < 64 && warned_.insert(w).second;
      }
      if (fresh) LogWarning("zfs sampling: " + w + " (not repeated)");
    }
    if (on_verdicts_ && !report->verdicts.empty()) on_verdicts_(report->verdicts);
  }
  MutexLock lock(mu_);
  ++samplings_;
}

}  // namespace dp
