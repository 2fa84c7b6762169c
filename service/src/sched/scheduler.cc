#include "sched/scheduler.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/log.h"
#include "sched/admission.h"
#include "sched/due_state_io.h"
#include "sched/exclusion.h"
#include "sched/targets.h"

namespace dp {

// How the scheduler and its store share the work. The store is SQLite: a
// write can wait on the disk or on another connection's transaction, and
// neither may hold up a progress report, an API call or the other jobs. So
// no store call is made while mu_ is held:
//  - reads happen before mu_ is taken (the state of a new schedule slot, a
//    finished run that is no longer tracked);
//  - writes are decided under mu_ and appended to writes_ there, in the
//    order the decisions are taken, and FlushWrites makes them after mu_ is
//    released. FlushWrites takes store_mu_ first and moves the queue out
//    under mu_ while holding it, so batches are written one at a time, in
//    queue order: a run's later state can never be overwritten by an earlier
//    one, whichever thread flushes it. Whoever queued a write calls
//    FlushWrites before it reports the effect (Notify, the return of Cancel,
//    the start of a worker, WaitIdle), so "stored before anyone hears of it"
//    still holds; a finished run stays readable through GetRun from
//    unflushed_ until its final state is stored.
//  - new runs are inserted without mu_ (the id comes from the store) before
//    their entry is created, so no write of theirs can precede the insert.
//    Tick's passes are serialised by tick_mu_, which Stop also takes, so a
//    schedule slot reserved under mu_ cannot be seen half-made by Stop.
// Lock order: tick_mu_, then store_mu_, then mu_; never store_mu_ inside mu_.
struct Scheduler::Write {
  std::optional<Run> run;  // UpdateRun of this snapshot, or
  std::string key;         // SetState(key, value)
  std::string value;
  std::string what;        // for the log: "storing run 7", ...
  bool ends_run = false;   // the run's last write: drop it from unflushed_ once stored
};

// A queued, deferred or running job and its stored run.
struct Scheduler::Entry {
  Job job;
  Run run;                              // as last stored (plus live progress)
  std::string pair;                     // DueStateKey of its schedule slot; "" for run-now
  std::optional<SysTime> next_attempt;  // deferred: not before this
  std::shared_ptr<JobCancel> cancel = std::make_shared<JobCancel>();
  std::string cancel_reason;
  bool running = false;
  int stored_progress_step = 0;  // progress is stored in 5% steps
  std::thread worker;
};

// What the scheduler tracks per (schedule, target).
struct Scheduler::Pair {
  DueState state;
  DueState before_slot;  // the state before the pending slot was taken up
  int pending = 0;       // jobs of the current slot still queued or running
  bool slot_started = false;
};

namespace {

bool Active(RunOutcome o) {
  return o == RunOutcome::kQueued || o == RunOutcome::kDeferred || o == RunOutcome::kRunning;
}

}  // namespace

Scheduler::Scheduler(Clock& clock, SchedulerStore& store, JobExecutor& executor,
                     DriveStateProbe& probe, std::vector<ScheduleConfig> schedules,
                     SchedulerConfig config, SchedulerOptions options)
    : clock_(clock),
      store_(store),
      executor_(executor),
      probe_(probe),
      schedules_(std::move(schedules)),
      config_(config),
      options_(std::move(options)) {}

Scheduler::~Scheduler() { Stop(); }

void Scheduler::UpdateInventory(std::vector<Drive> drives, std::vector<Pool> pools) {
  {
    MutexLock lock(mu_);
    drives_ = std::move(drives);
    pools_ = std::move(pools);
    wake_ = true;
  }
  cv_.notify_all();
}

Status Scheduler::Start() {
  auto stale = store_.UnfinishedRuns();
  if (!stale.ok()) return stale.status().WithContext("scheduler: reading unfinished runs");
  const std::int64_t now = ToUnixSeconds(clock_.Now());
  for (Run r : *stale) {
    if (r.outcome == RunOutcome::kRunning) {
      r.outcome = RunOutcome::kFailed;
      r.reason = "interrupted: the daemon stopped while it ran";
    } else {
      r.outcome = RunOutcome::kCancelled;
      r.reason = "interrupted: the daemon stopped before it ran";
    }
    r.ended_at = now;
    DP_RETURN_IF_ERROR(
        store_.UpdateRun(r).WithContext("scheduler: closing run " + std::to_string(r.id)));
  }
  MutexLock lock(mu_);
  if (loop_.joinable() || stopped_) return FailedPrecondition("scheduler already started");
  loop_ = std::thread([this] { Loop(); });
  return Status::Ok();
}

void Scheduler::Loop() {
  while (true) {
    {
      MutexLock lock(mu_);
      if (stopping_) return;
    }
    if (options_.heartbeat) options_.heartbeat->Beat();
    Tick();
    MutexLock lock(mu_);
    lock.WaitFor(cv_, options_.tick, [this]() REQUIRES(mu_) { return stopping_ || wake_; });
    wake_ = false;
  }
}

void Scheduler::Stop() {
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopping_ = true;
    for (auto& [id, e] : entries_) {
      if (e->running) {
        e->cancel_reason = "shutdown";
        e->cancel->Cancel();
      }
    }
  }
  cv_.notify_all();
  if (loop_.joinable()) loop_.join();
  MutexLock tick_lock(tick_mu_);  // a Tick from another thread ends first
  WaitIdle();
  std::vector<Run> done;
  {
    MutexLock lock(mu_);
    // Slots whose jobs never started are given back: caught up after restart.
    for (auto& [key, p] : pairs_) {
      if (p.pending > 0 && !p.slot_started) {
        p.state = p.before_slot;
        QueueStateLocked(key, p.state);
      }
    }
    const SysTime now = clock_.Now();
    while (!entries_.empty())
      FinishLocked(*entries_.begin()->second, RunOutcome::kCancelled, "shutdown", now, done);
    stopped_ = true;
  }
  FlushWrites();
  Notify(done);
}

void Scheduler::WaitIdle() {
  {
    MutexLock lock(mu_);
    lock.Wait(cv_, [this]() REQUIRES(mu_) { return running_ == 0; });
  }
  JoinFinished();
}

void Scheduler::JoinFinished() {
  std::vector<std::thread> done;
  {
    MutexLock lock(mu_);
    done.swap(finished_);
  }
  for (auto& t : done)
    if (t.joinable()) t.join();
}

void Scheduler::Tick() {
  MutexLock tick_lock(tick_mu_);
  JoinFinished();
  {
    MutexLock lock(mu_);
    if (stopping_) return;
  }
  const SysTime now = clock_.Now();
  EnqueueDue(now);
  StartEligible(now);
}

void Scheduler::QueueRunLocked(const Run& run, std::string what, bool ends_run) {
  Write w;
  w.run = run;
  w.what = std::move(what);
  w.ends_run = ends_run;
  writes_.push_back(std::move(w));
}

void Scheduler::QueueStateLocked(const std::string& key, const DueState& state) {
  Write w;
  w.key = key;
  w.value = EncodeDueState(state);
  w.what = "saving state " + key;
  writes_.push_back(std::move(w));
}

void Scheduler::FlushWrites() {
  MutexLock store_lock(store_mu_);
  std::vector<Write> batch;
  {
    MutexLock lock(mu_);
    batch.swap(writes_);
  }
  if (batch.empty()) return;
  std::vector<std::int64_t> stored_final;
  for (const Write& w : batch) {
    Status s = w.run ? store_.UpdateRun(*w.run) : store_.SetState(w.key, w.value);
    if (!s.ok()) {
      const std::string line = "scheduler: " + w.what + ": " + s.ToString();
      if (w.ends_run)
        LogError(line);
      else
        LogWarning(line);
    }
    if (w.ends_run) stored_final.push_back(w.run->id);
  }
  if (stored_final.empty()) return;
  MutexLock lock(mu_);
  for (std::int64_t id : stored_final) unflushed_.erase(id);
}

// A (schedule, target) pair on the snapshot of the inventory a pass works on.
struct Scheduler::Due {
  const ScheduleConfig* schedule;
  ScheduleTarget target;
  std::string key;
};

// A slot taken up: its jobs, to be stored as runs once mu_ is released.
struct Scheduler::Slot {
  std::string key;
  std::string schedule;
  std::vector<Job> jobs;
};

// tick_mu_ keeps another pass from adding the states read here meanwhile.
void Scheduler::EnqueueDue(SysTime now) {
  std::vector<Due> targets = DueTargets();
  std::map<std::string, DueState> loaded = LoadUnknownStates(targets);
  std::vector<Slot> slots = TakeDueSlots(targets, loaded, now);
  FlushWrites();
  StoreSlotRuns(slots, now);
}

std::vector<Scheduler::Due> Scheduler::DueTargets() const {
  std::vector<Due> targets;
  MutexLock lock(mu_);
  for (const auto& s : schedules_) {
    if (!s.enabled) continue;
    for (auto& target : ExpandSchedule(s, drives_, pools_)) {
      std::string key = DueStateKey(s.name, target.key);
      targets.push_back({&s, std::move(target), std::move(key)});
    }
  }
  return targets;
}

std::map<std::string, DueState> Scheduler::LoadUnknownStates(
    const std::vector<Due>& targets) const {
  std::map<std::string, DueState> loaded;
  std::set<std::string> unknown;
  {
    MutexLock lock(mu_);
    for (const Due& d : targets)
      if (!pairs_.count(d.key)) unknown.insert(d.key);
  }
  for (const std::string& key : unknown) {
    auto state = LoadDueState(store_, key);
    if (!state.ok())
      LogWarning("scheduler: reading state " + key + ": " + state.status().ToString());
    loaded[key] = state.ok() ? *state : DueState{};
  }
  return loaded;
}

std::vector<Scheduler::Slot> Scheduler::TakeDueSlots(std::vector<Due>& targets,
                                                     std::map<std::string, DueState>& loaded,
                                                     SysTime now) {
  std::vector<Slot> slots;
  MutexLock lock(mu_);
  for (Due& d : targets) {
    const ScheduleConfig& s = *d.schedule;
    auto it = pairs_.find(d.key);
    if (it == pairs_.end()) {
      Pair p;
      p.state = loaded[d.key];
      if (!p.state.last_run && !p.state.first_seen) {
        p.state.first_seen = now;
        QueueStateLocked(d.key, p.state);
      }
      it = pairs_.emplace(d.key, std::move(p)).first;
    }
    Pair& p = it->second;
    DueState rebased = RebaseAfterClockJump(s, d.target.key, p.state, now);
    if (!(rebased == p.state)) {
      LogWarning("scheduler: the clock went back; " + d.key + " now counts from " +
                 FormatUtc(now));
      p.state = rebased;
      QueueStateLocked(d.key, p.state);
    }
    if (p.pending > 0) continue;  // the previous slot is still being worked off
    auto due = NextDue(s, d.target.key, p.state, now);
    if (!due || *due > now) continue;
    p.before_slot = p.state;
    p.state.last_run = RecordedRunTime(s, d.target.key, *due, now);
    p.slot_started = false;
    QueueStateLocked(d.key, p.state);
    if (d.target.jobs.empty()) {
      p.state = p.before_slot;  // nothing to store: retry later
      continue;
    }
    // Reserved now, so a second pass cannot take the slot up again before
    // the runs are stored.
    p.pending = static_cast<int>(d.target.jobs.size());
    slots.push_back({d.key, s.name, std::move(d.target.jobs)});
  }
  return slots;
}

void Scheduler::StoreSlotRuns(std::vector<Slot>& slots, SysTime now) {
  for (Slot& slot : slots) {
    std::vector<std::unique_ptr<Entry>> stored;
    for (auto& job : slot.jobs) {
      job.queued_at = now;
      Run run;
      run.drive_id = job.drive_id;
      run.test = job.test;
      run.trigger = job.trigger;
      run.started_at = ToUnixSeconds(now);
      run.outcome = RunOutcome::kQueued;
      auto id = store_.InsertRun(run);
      if (!id.ok()) {
        LogError("scheduler: cannot store the run of " + job.Describe() + ": " +
                 id.status().ToString());
        continue;
      }
      run.id = *id;
      job.run_id = *id;
      auto e = std::make_unique<Entry>();
      e->job = std::move(job);
      e->run = run;
      e->pair = slot.key;
      stored.push_back(std::move(e));
    }
    MutexLock lock(mu_);
    Pair& p = pairs_[slot.key];
    p.pending = static_cast<int>(stored.size());
    if (p.pending == 0) p.state = p.before_slot;  // nothing could be stored: retry later
    for (auto& e : stored) {
      LogDebug("scheduler: queued run " + std::to_string(e->run.id) + ": " + e->job.Describe() +
               " (" + slot.schedule + ")");
      entries_[e->run.id] = std::move(e);
    }
  }
}

std::vector<const Job*> Scheduler::RunningJobsLocked() const {
  std::vector<const Job*> out;
  for (const auto& [id, e] : entries_)
    if (e->running) out.push_back(&e->job);
  return out;
}

void Scheduler::StartEligible(SysTime now) {
  std::vector<std::int64_t> order;
  {
    MutexLock lock(mu_);
    std::vector<const Entry*> waiting;
    for (const auto& [id, e] : entries_)
      if (!e->running && (!e->next_attempt || *e->next_attempt <= now)) waiting.push_back(e.get());
    // Requests first, then the oldest.
    std::stable_sort(waiting.begin(), waiting.end(), [](const Entry* a, const Entry* b) {
      bool ra = a->pair.empty(), rb = b->pair.empty();
      if (ra != rb) return ra;
      return a->job.queued_at < b->job.queued_at;
    });
    for (const Entry* e : waiting) order.push_back(e->run.id);
  }
  for (std::int64_t id : order) {
    Job job;
    {
      MutexLock lock(mu_);
      if (stopping_) return;
      auto it = entries_.find(id);
      if (it == entries_.end() || it->second->running) continue;  // cancelled meanwhile
      if (!CanStart(it->second->job, RunningJobsLocked(), config_)) continue;
      job = it->second->job;
    }
    // Probe outside the lock: it may run tools. Each probe is a step of
    // progress: a tick that probes many drives is not a stuck loop.
    if (options_.heartbeat) options_.heartbeat->Beat();
    std::vector<Result<DriveState>> probed;
    for (const auto& drive_id : job.Drives()) probed.push_back(probe_.Probe(drive_id));
    std::vector<Run> done;
    bool start = false;
    {
      MutexLock lock(mu_);
      auto it = entries_.find(id);
      if (it == entries_.end() || stopping_) continue;
      start = ApplyAdmissionLocked(*it->second, Admit(job, probed, drives_, pools_, config_, now),
                                   now, done);
    }
    FlushWrites();
    // The worker starts once its run is stored as running, so none of the
    // worker's own writes can be queued before that one.
    if (start) {
      MutexLock lock(mu_);
      entries_.at(id)->worker = std::thread([this, id] { Execute(id); });
    }
    Notify(done);
  }
}

bool Scheduler::ApplyAdmissionLocked(Entry& e, const DeferDecision& d, SysTime now,
                                     std::vector<Run>& done) {
  const std::string id = std::to_string(e.run.id);
  if (d.action == DeferAction::kSkip && d.reason == kMissingReason) {
    LogWarning("scheduler: skipping run " + id + " (" + e.job.Describe() +
               "): the drive is gone" + (d.detail.empty() ? "" : ": " + d.detail));
    FinishLocked(e, RunOutcome::kSkipped, d.reason, now, done);
    return false;
  }
  if (d.action == DeferAction::kRun) {
    // Marked running here, under the same lock as the exclusion check, so
    // the next job's CanStart sees it; Stop waits for it through running_.
    e.running = true;
    ++running_;
    e.run.outcome = RunOutcome::kRunning;
    e.run.started_at = ToUnixSeconds(now);
    e.run.reason.clear();
    e.run.progress = 0;
    QueueRunLocked(e.run, "storing run " + id);
    if (!e.pair.empty()) pairs_[e.pair].slot_started = true;
    LogInfo("scheduler: starting run " + id + ": " + e.job.Describe());
    return true;
  }
  if (d.action == DeferAction::kDefer) {
    LogInfo("scheduler: deferring run " + id + " (" + e.job.Describe() + "): " + d.reason + ": " +
            d.detail);
    e.next_attempt = d.retry_at;
    if (e.run.outcome != RunOutcome::kDeferred || e.run.reason != d.reason) {
      e.run.outcome = RunOutcome::kDeferred;
      e.run.reason = d.reason;
      QueueRunLocked(e.run, "storing run " + id);
    }
    return false;
  }
  LogInfo("scheduler: skipping run " + id + " (" + e.job.Describe() + "): still " + d.reason +
          " after " + FormatDuration(config_.defer_window_seconds) + ": " + d.detail);
  FinishLocked(e, RunOutcome::kSkipped, d.reason, now, done);
  return false;
}

void Scheduler::Execute(std::int64_t id) {
  Job job;
  std::shared_ptr<JobCancel> cancel;
  {
    MutexLock lock(mu_);
    Entry& e = *entries_.at(id);
    job = e.job;
    cancel = e.cancel;
  }
  ProgressFn progress = [this, id](double p) {
    if (!(p >= 0)) p = 0;  // NaN too
    p = std::min(p, 1.0);
    {
      MutexLock lock(mu_);
      auto it = entries_.find(id);
      if (it == entries_.end()) return;
      Entry& e = *it->second;
      int step = static_cast<int>(std::floor(p * 20));
      if (step <= e.stored_progress_step) {
        e.run.progress = p;
        return;
      }
      e.stored_progress_step = step;
      Run stored = e.run;
      stored.progress = p;
      QueueRunLocked(stored, "storing progress of run " + std::to_string(id));
    }
    FlushWrites();
    // Shown live only once stored: whoever sees this progress through
    // GetRun finds it in the store too.
    MutexLock lock(mu_);
    auto it = entries_.find(id);
    if (it != entries_.end()) it->second->run.progress = p;
  };
  Result<JobResult> result = executor_.Execute(job, *cancel, progress);

  std::vector<Run> done;
  {
    MutexLock lock(mu_);
    Entry& e = *entries_.at(id);
    RunOutcome outcome;
    std::string reason;
    if (result.ok()) {
      outcome = RunOutcome::kOk;
      e.run.progress = 1;
      e.run.contended = result->contended;
      e.run.partial = result->partial;
      e.run.engine = result->engine;
      reason = result->note;
    } else if (cancel->cancelled() || result.status().code() == StatusCode::kCancelled) {
      outcome = RunOutcome::kCancelled;
      reason = e.cancel_reason.empty() ? result.status().message() : e.cancel_reason;
    } else {
      outcome = RunOutcome::kFailed;
      reason = result.status().ToString();
    }
    e.running = false;
    finished_.push_back(std::move(e.worker));
    LogInfo("scheduler: run " + std::to_string(id) + " (" + job.Describe() + ") " +
            std::string(RunOutcomeName(outcome)) + (reason.empty() ? "" : ": " + reason));
    FinishLocked(e, outcome, reason, clock_.Now(), done);
    wake_ = true;
  }
  FlushWrites();
  {
    // Idle (WaitIdle, Stop) only once the final state is stored.
    MutexLock lock(mu_);
    --running_;
  }
  cv_.notify_all();
  Notify(done);
}

void Scheduler::FinishLocked(Entry& e, RunOutcome outcome, std::string reason, SysTime now,
                             std::vector<Run>& done) {
  e.run.outcome = outcome;
  e.run.reason = std::move(reason);
  e.run.ended_at = ToUnixSeconds(now);
  QueueRunLocked(e.run, "storing the end of run " + std::to_string(e.run.id), true);
  unflushed_[e.run.id] = e.run;
  if (!e.pair.empty()) {
    auto it = pairs_.find(e.pair);
    if (it != pairs_.end() && it->second.pending > 0) --it->second.pending;
  }
  done.push_back(e.run);
  entries_.erase(e.run.id);  // destroys e
}

void Scheduler::Notify(const std::vector<Run>& done) {
  if (!options_.on_run_finished) return;
  for (const auto& r : done) options_.on_run_finished(r);
}

Result<std::int64_t> Scheduler::RunNow(const RunRequest& req) {
  if (!IsKnownTest(req.test)) return InvalidArgument("unknown test '" + req.test + "'");
  Job job;
  {
    MutexLock lock(mu_);
    if (stopping_) return Unavailable("the scheduler is shutting down");
    if (req.test == "pool-write" || req.test == "parallel") {
      ScheduleConfig adhoc;
      adhoc.name = "run-now";
      adhoc.tests = {req.test};
      for (auto& t : ExpandSchedule(adhoc, drives_, pools_))
        if (t.label == req.target && !t.jobs.empty()) job = t.jobs.front();
      if (job.pool.empty())
        return NotFound(std::string(req.test == "parallel"
                                        ? "no vdev 'POOL/VDEV' with two or more known members named '"
                                        : "no pool named '") +
                        req.target + "'");
    } else {
      const Drive* d = FindDrive(drives_, req.target);
      if (!d) return NotFound("no drive '" + req.target + "' (give an id, name or /dev path)");
      job = MakeDriveJob(req.test, *d, pools_);
    }
  }
  job.schedule.clear();
  job.trigger = req.trigger;
  job.force = req.force;
  job.queued_at = clock_.Now() + std::max(req.delay, std::chrono::seconds(0));
  Run run;
  run.drive_id = job.drive_id;
  run.test = job.test;
  run.trigger = job.trigger;
  run.started_at = ToUnixSeconds(job.queued_at);
  run.outcome = RunOutcome::kQueued;
  DP_ASSIGN_OR_RETURN(run.id, store_.InsertRun(run));  // stored before the id is handed out
  job.run_id = run.id;
  LogDebug("scheduler: queued run " + std::to_string(run.id) + ": " + job.Describe() + " (" +
           req.trigger + ")");
  auto e = std::make_unique<Entry>();
  if (req.delay.count() > 0) e->next_attempt = job.queued_at;
  e->job = std::move(job);
  e->run = run;
  std::vector<Run> done;
  {
    MutexLock lock(mu_);
    Entry& added = *(entries_[run.id] = std::move(e));
    // Stop began while the run was being stored: it is cancelled like every
    // other queued run at shutdown rather than left queued in the store.
    if (stopping_) FinishLocked(added, RunOutcome::kCancelled, "shutdown", clock_.Now(), done);
    wake_ = true;
  }
  cv_.notify_all();
  FlushWrites();
  Notify(done);
  return run.id;
}

Result<Run> Scheduler::GetRun(std::int64_t id) {
  {
    MutexLock lock(mu_);
    auto it = entries_.find(id);
    if (it != entries_.end()) return it->second->run;
    auto f = unflushed_.find(id);
    if (f != unflushed_.end()) return f->second;
  }
  DP_ASSIGN_OR_RETURN(auto run, store_.GetRun(id));
  if (!run) return NotFound("no run " + std::to_string(id));
  return *run;
}

Status Scheduler::Cancel(std::int64_t id) {
  std::vector<Run> done;
  std::optional<Run> finished;  // not tracked any more, or never this daemon's
  {
    MutexLock lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) {
      auto f = unflushed_.find(id);
      if (f != unflushed_.end()) finished = f->second;
    } else {
      Entry& e = *it->second;
      if (e.running) {
        e.cancel_reason = "cancelled by request";
        e.cancel->Cancel();
        return Status::Ok();  // the worker records the outcome when the executor returns
      }
      FinishLocked(e, RunOutcome::kCancelled, "cancelled by request", clock_.Now(), done);
    }
  }
  if (done.empty()) {
    if (!finished) {
      auto stored = store_.GetRun(id);
      if (!stored.ok()) return stored.status();
      if (!*stored) return NotFound("no run " + std::to_string(id));
      finished = **stored;
    }
    if (Active(finished->outcome))
      return FailedPrecondition("run " + std::to_string(id) + " is not this daemon's");
    return FailedPrecondition("run " + std::to_string(id) + " already finished (" +
                              std::string(RunOutcomeName(finished->outcome)) + ")");
  }
  FlushWrites();
  Notify(done);
  return Status::Ok();
}

std::vector<Run> Scheduler::ActiveRuns() const {
  MutexLock lock(mu_);
  std::vector<Run> out;
  for (const auto& [id, e] : entries_) out.push_back(e->run);
  return out;
}

DueState Scheduler::StateForPreviewLocked(const std::string& schedule, const std::string& target,
                                          SysTime now) const {
  auto it = pairs_.find(DueStateKey(schedule, target));
  if (it != pairs_.end()) return it->second.state;
  return DueState{std::nullopt, now};
}

std::vector<PlannedTarget> Scheduler::Upcoming(int count) const {
  MutexLock lock(mu_);
  const SysTime now = clock_.Now();
  return PlanSchedule(
      schedules_, drives_, pools_,
      [&](const std::string& s, const std::string& t) REQUIRES(mu_) {
        return StateForPreviewLocked(s, t, now);
      },
      now, count);
}

}  // namespace dp
