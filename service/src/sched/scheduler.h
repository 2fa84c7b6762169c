// Scheduler: runs the configured schedules. On every tick it asks
// NextDue which (schedule, target) pairs are due, queues one job per test —
// each stored as a Run *before* anything else can see it — and starts queued
// jobs that the exclusion rules (sched/exclusion.h) and admission
// (sched/admission.h: the deferral rules of sched/deferral.h on what the
// DriveStateProbe reads) allow, on worker threads, through the injected
// JobExecutor. No store call is made under its lock (scheduler.cc says how). Run-now requests, progress and cancel go through it too.
// Its state (last run per schedule × target) lives in the store, so a
// restart neither repeats nor loses a slot.
//
// Owned by the composition root. Threads: one loop thread (Start/Stop) that
// ticks every options.tick of real time or when woken, plus one worker thread
// per running job. Every public method is thread-safe; Tick() may also be
// called directly (tests drive it on a FakeClock without Start()).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/heartbeat.h"
#include "base/result.h"
#include "base/thread_annotations.h"
#include "config/schedule_config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "model/run.h"
#include "sched/deferral.h"
#include "sched/job.h"
#include "sched/next_due.h"
#include "sched/preview.h"
#include "sched/scheduler_store.h"

namespace dp {

struct SchedulerOptions {
  // How often the loop thread looks at the clock (real time). Default 1s.
  std::chrono::milliseconds tick{1000};
  // Called after a run's final state is stored (ok, failed, skipped,
  // cancelled), outside the scheduler's lock, on a scheduler thread; this is
  // where the daemon hands results to detection. Default: nothing.
  std::function<void(const Run&)> on_run_finished;
  // Beaten on every turn of the loop and before each pre-run probe (the
  // watchdog's view of it); optional.
  Heartbeat* heartbeat = nullptr;
};

// A run-now request (CLI `diskpulse run`, `POST /api/v1/runs`, re-tests).
struct RunRequest {
  // Drive-level tests: a drive id, name, /dev path or device basename.
  // pool-write: a pool name. parallel: "POOL/VDEV".
  std::string target;
  std::string test = "seq";     // one of KnownTests()
  std::string trigger = "api";  // stored in Run::trigger: "api", "cli", "retest", ...
  bool force = false;           // ignore the deferral rules (exclusion still applies)
  // Not before now + delay (a confirmation re-test waits out short
  // interference); the deferral window counts from then.
  std::chrono::seconds delay{0};
};

class Scheduler {
 public:
  Scheduler(Clock& clock, SchedulerStore& store, JobExecutor& executor, DriveStateProbe& probe,
            std::vector<ScheduleConfig> schedules, SchedulerConfig config,
            SchedulerOptions options = {});
  ~Scheduler();  // Stop()
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // The drives and pools to schedule over; the daemon calls it after every
  // discovery. Drives that disappear get their pending jobs skipped ("missing").
  void UpdateInventory(std::vector<Drive> drives, std::vector<Pool> pools);

  // Marks runs a previous process left unfinished (queued/deferred ->
  // cancelled, running -> failed, reason "interrupted: ...") and starts the
  // loop thread.
  Status Start();
  // Cancels running jobs (reason "shutdown"), waits for them, records queued
  // ones as cancelled and gives their never-started slots back (so they are
  // caught up after a restart), and joins every thread. Idempotent.
  void Stop();

  // One scheduling pass at clock.Now(): queue due jobs, start what may start.
  void Tick();

  // Queues one test now; returns the stored run's id. InvalidArgument for an
  // unknown test, NotFound for an unknown target.
  Result<std::int64_t> RunNow(const RunRequest& request);
  // The run with live progress while it is active, else as stored.
  Result<Run> GetRun(std::int64_t id);
  // Cancels a queued, deferred or running run. NotFound for an unknown id,
  // FailedPrecondition for one that already finished.
  Status Cancel(std::int64_t id);
  // Queued, deferred and running runs, oldest first.
  std::vector<Run> ActiveRuns() const;
  // The next `count` due times of every (schedule, target), from the live state.
  std::vector<PlannedTarget> Upcoming(int count) const;

  // Blocks until no job is running (tests; Stop uses it too).
  void WaitIdle();

 private:
  struct Entry;
  struct Pair;
  struct Write;
  struct Due;
  struct Slot;

  void Loop();
  // Takes up every due slot and stores its jobs as queued runs, in phases:
  // what is due on one snapshot of the inventory (DueTargets), the states of
  // slots seen for the first time read from the store (LoadUnknownStates,
  // mu_ not held), the slots taken up under mu_ (TakeDueSlots), their runs
  // stored once it is released (StoreSlotRuns).
  void EnqueueDue(SysTime now);
  std::vector<Due> DueTargets() const;
  std::map<std::string, DueState> LoadUnknownStates(const std::vector<Due>& targets) const;
  std::vector<Slot> TakeDueSlots(std::vector<Due>& targets,
                                 std::map<std::string, DueState>& loaded, SysTime now);
  void StoreSlotRuns(std::vector<Slot>& slots, SysTime now);
  void StartEligible(SysTime now);
  // Starts, defers or skips a waiting entry as Admit decided; true when it
  // is to start (its worker is created once its state is stored). mu_ held.
  bool ApplyAdmissionLocked(Entry& e, const DeferDecision& d, SysTime now, std::vector<Run>& done)
      REQUIRES(mu_);
  void Execute(std::int64_t id);
  // Records a pending entry's final outcome, drops it. The run is appended to
  // `done` for the observer.
  void FinishLocked(Entry& e, RunOutcome outcome, std::string reason, SysTime now,
                    std::vector<Run>& done) REQUIRES(mu_);
  void Notify(const std::vector<Run>& done);
  // Store writes are queued under mu_ and made by FlushWrites once it is
  // released (scheduler.cc says why and how their order is kept).
  void QueueRunLocked(const Run& run, std::string what, bool ends_run = false) REQUIRES(mu_);
  void QueueStateLocked(const std::string& key, const DueState& state) REQUIRES(mu_);
  void FlushWrites() EXCLUDES(mu_);
  void JoinFinished();
  std::vector<const Job*> RunningJobsLocked() const REQUIRES(mu_);
  DueState StateForPreviewLocked(const std::string& schedule, const std::string& target,
                                 SysTime now) const REQUIRES(mu_);

  Clock& clock_;
  SchedulerStore& store_;
  JobExecutor& executor_;
  DriveStateProbe& probe_;
  const std::vector<ScheduleConfig> schedules_;
  const SchedulerConfig config_;
  const SchedulerOptions options_;

  Mutex tick_mu_;   // one Tick at a time
  Mutex store_mu_;  // one FlushWrites at a time, so writes keep their order
  mutable Mutex mu_;
  std::condition_variable cv_;  // wakes the loop, WaitIdle and Stop
  bool wake_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool stopped_ GUARDED_BY(mu_) = false;
  std::vector<Drive> drives_ GUARDED_BY(mu_);
  std::vector<Pool> pools_ GUARDED_BY(mu_);
  std::map<std::int64_t, std::unique_ptr<Entry>> entries_ GUARDED_BY(mu_);  // pending and running, by run id
  std::map<std::string, Pair> pairs_ GUARDED_BY(mu_);                       // by DueStateKey
  std::vector<Write> writes_ GUARDED_BY(mu_);                               // decided, not yet made
  std::map<std::int64_t, Run> unflushed_ GUARDED_BY(mu_);  // finished, their final state not yet stored
  int running_ GUARDED_BY(mu_) = 0;
  std::vector<std::thread> finished_ GUARDED_BY(mu_);  // workers that ended, to be joined
  std::thread loop_;
};

}  // namespace dp
