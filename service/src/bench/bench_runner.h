// The runner: the library entry points that the CLI and the scheduler call.
//
// RunBench opens the targets named in a BenchRequest, checks everything that
// can be checked before any I/O (options, target kinds, sizes, block sizes:
// bad input fails here and nothing is read or written), then runs the tests
// target by target and returns one BenchReport per target. Each measured point
// is watched by the contention guard (own I/O counted by OwnIoMeter against
// the device's counters over the point's window); before the first point an
// idle check watches the device and sets contended_before when it is busy
// with foreign I/O. A read error, a vanished device or a
// cancel ends a target's run early: the report is returned with partial=true,
// the reason in `error`, and the interrupted point flagged partial — never as
// a whole result.
//
// Threads: RunBench blocks the calling thread (the scheduler runs it on a
// worker); `cancel` may be set from any thread and is honoured within ~100 ms
// (plus the reads in flight); `progress` is called on the calling thread (and,
// during `parallel`, on one of its helper threads) with a fraction 0..1.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "base/clock.h"
#include "bench/bench_options.h"
#include "bench/bench_target.h"
#include "bench/block_device.h"
#include "bench/workload_runner.h"
#include "model/bench_result.h"

namespace dp {

struct BenchRequest {
  std::vector<std::string> targets;  // device or file paths; directories for pool-write
  BenchOptions options;
};

// The seams RunBench needs; both must outlive the call.
struct BenchEnvironment {
  Clock* clock = nullptr;
  DeviceOpener* opener = nullptr;
};

Result<std::vector<BenchReport>> RunBench(const BenchRequest& request, const BenchEnvironment& env,
                                          const std::atomic<bool>* cancel,
                                          const ProgressFn& progress);

// Lower level, for targets already built (e.g. SimulatedTarget in detection
// tests): runs the read tests in `options.tests` except parallel on one target.
// Errors (nothing run): the plan does not fit the target.
Result<BenchReport> RunReadTests(BenchTarget& target, const BenchOptions& options,
                                 const std::atomic<bool>* cancel, const ProgressFn& progress);

// The parallel test: each target alone, then all together; appends "alone",
// "together" and "sum" points (variant field) to reports[i] for targets[i].
// Errors: fewer than two targets, or a plan that does not fit.
Status RunParallel(const std::vector<BenchTarget*>& targets, const BenchOptions& options,
                   const std::vector<BenchReport*>& reports, const std::atomic<bool>* cancel,
                   const ProgressFn& progress);

}  // namespace dp
