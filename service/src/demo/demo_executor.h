// DemoJobExecutor and DemoStateProbe: what the scheduler of `diskpulsed
// --demo` runs on instead of devices. A read test measures the DemoWorld
// drive at the current time (the real workloads on a SimulatedTarget) and
// takes a few seconds of wall time, reporting progress, so a run can be
// watched from the page; `smart` stores the drive's replayed capture as it
// is now; self-tests and pool-level tests are refused with a reason. The
// probe reports every demo drive idle and awake.
//
// Thread-safe as JobExecutor requires (the world is immutable; the store is
// thread-safe).
#pragma once

#include <chrono>
#include <memory>

#include "demo/demo_world.h"
#include "base/clock.h"
#include "sched/deferral.h"
#include "sched/job.h"

namespace dp {

class Store;

class DemoJobExecutor final : public JobExecutor {
 public:
  // run_time: the wall time a read test takes (for progress to be visible).
  DemoJobExecutor(std::shared_ptr<const DemoWorld> world, Store& store, const Clock& clock,
                  std::chrono::milliseconds run_time);
  Result<JobResult> Execute(const Job& job, JobCancel& cancel, ProgressFn progress) override;

 private:
  std::shared_ptr<const DemoWorld> world_;
  Store& store_;
  const Clock& clock_;
  const std::chrono::milliseconds run_time_;
};

class DemoStateProbe final : public DriveStateProbe {
 public:
  explicit DemoStateProbe(std::shared_ptr<const DemoWorld> world) : world_(std::move(world)) {}
  Result<DriveState> Probe(const std::string& drive_id) override;

 private:
  std::shared_ptr<const DemoWorld> world_;
};

}  // namespace dp
