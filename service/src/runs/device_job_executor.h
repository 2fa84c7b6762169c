// DeviceJobExecutor: the daemon's JobExecutor (sched/job.h). Read tests and
// pool-write go through the bench runner (RunBench) on the drive's current
// device node (or the pool's scratch directory) with the config's bench
// budgets and engine, and their points are saved under the job's run id
// (Store::AddMeasurements); `smart` reads one SMART snapshot and saves it;
// `smart-short` / `smart-long` start the drive's own self-test through the
// SMART jobs of runs/smart_jobs.h (never on a busy pool's member, never waking a
// sleeping disk). Contended and partial flags are carried into the JobResult.
//
// Owned by the composition root; the runner, store, clock and opener must
// outlive it. Thread-safe: Execute may run on several scheduler workers at
// once (each call has its own bench state; Store and CommandRunner are
// thread-safe).
#pragma once

#include "base/clock.h"
#include "base/command_runner.h"
#include "bench/block_device.h"
#include "config/config.h"
#include "sched/job.h"

namespace dp {

class Store;

class DeviceJobExecutor final : public JobExecutor {
 public:
  DeviceJobExecutor(Config config, CommandRunner& runner, Store& store, Clock& clock,
                    DeviceOpener& opener);

  Result<JobResult> Execute(const Job& job, JobCancel& cancel, ProgressFn progress) override;

 private:
  Result<JobResult> RunBenchJob(const Job& job, JobCancel& cancel, const ProgressFn& progress);
  Result<JobResult> RunSmartJob(const Job& job);
  Result<JobResult> RunSelfTestJob(const Job& job);

  const Config config_;
  CommandRunner& runner_;
  Store& store_;
  Clock& clock_;
  DeviceOpener& opener_;
};

}  // namespace dp
