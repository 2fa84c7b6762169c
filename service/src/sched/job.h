// Job: one test of one drive (or of one pool / vdev for pool-write and
// parallel) that the scheduler runs, and the JobExecutor interface that runs
// it. The daemon plugs in the real executor (bench engine, smartctl); tests
// plug in a fake. Plain value types except JobCancel (thread-safe flag).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/progress.h"
#include "base/result.h"
#include "model/test_catalog.h"

namespace dp {

// Whether the test competes for the drive's bandwidth (counted against the
// concurrency caps and the vdev exclusion): reads and pool writes (TestKind,
// model/test_catalog.h) — and, to be safe, a name that is not a test.
bool IsHeavyTest(std::string_view test);

struct Job {
  std::int64_t run_id = 0;  // the stored Run this job updates
  std::string test;         // one of KnownTests()
  std::string schedule;     // "" for a run-now request
  std::string trigger;      // "schedule:<name>", "api", "cli", "retest"
  // Drive-level tests: the drive. Pool-level tests (pool-write: the pool;
  // parallel: one vdev) leave drive_id "" and list the members.
  std::string drive_id;
  std::string drive_name;                // for people: "sda", "bench-a"
  std::string dev_path;                  // current node, e.g. /dev/sda
  std::string pool;                      // the pool the drive (or this pool-level job) belongs to
  std::string vdev;                      // its vdev ("mirror-0"); "" when not in a pool
  std::vector<std::string> member_ids;   // pool-level jobs: the drives involved
  std::vector<std::string> controllers;  // controllers of the drive(s) involved ("" unknown)
  bool force = false;                    // run-now --force: deferral rules don't apply
  SysTime queued_at{};  // when it was queued (the deferral window counts from here)

  // The drives the job touches (its own, or member_ids).
  std::vector<std::string> Drives() const;
  // "zones on sda", "pool-write on tank", "parallel on tank/mirror-0"
  std::string Describe() const;
};

// What an executed job reports besides its measurements (which the executor
// stores itself under job.run_id).
struct JobResult {
  bool contended = false;  // foreign I/O during the run: not evidence of anything
  bool partial = false;    // stopped early by a budget (time, bytes)
  std::string engine;      // "pread", "uring", "smartctl", ...
  std::string note;        // kept as the run's reason when not empty
};

// Set by Scheduler::Cancel or shutdown; executors poll it between I/Os and
// return a kCancelled status.
class JobCancel {
 public:
  void Cancel() { flag_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_.load(std::memory_order_relaxed); }
  // For engines that poll a plain atomic.
  const std::atomic<bool>& flag() const { return flag_; }

 private:
  std::atomic<bool> flag_{false};
};

// Runs jobs. Called from scheduler worker threads, possibly several at once
// (different drives); implementations must be thread-safe.
class JobExecutor {
 public:
  virtual ~JobExecutor() = default;
  // Runs the job to completion. An error Status means the run failed (its
  // message becomes the reason); kCancelled means it stopped on request.
  virtual Result<JobResult> Execute(const Job& job, JobCancel& cancel, ProgressFn progress) = 0;
};

}  // namespace dp
