#include "sched/scheduler.h"

#include <algorithm>
#include <cmath>

#include "base/log.h"
#include "sched/due_state_io.h"
#include "sched/exclusion.h"
#include "sched/targets.h"

namespace dp {

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
    std::lock_guard lock(mu_);
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
  std::lock_guard lock(mu_);
  if (loop_.joinable() || stopped_) return FailedPrecondition("scheduler already started");
  loop_ = std::thread([this] { Loop(); });
  return Status::Ok();
}

void Scheduler::Loop() {
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
    }
    Tick();
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, options_.tick, [this] { return stopping_ || wake_; });
    wake_ = false;
  }
}

void Scheduler::Stop() {
  {
    std::lock_guard lock(mu_);
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
  std::lock_guard tick_lock(tick_mu_);  // a Tick from another thread ends first
  WaitIdle();
  std::vector<Run> done;
  {
    std::lock_guard lock(mu_);
    // Slots whose jobs never started are given back: caught up after restart.
    for (auto& [key, p] : pairs_) {
      if (p.pending > 0 && !p.slot_started) {
        p.state = p.before_slot;
        SaveStateLocked(key, p.state);
      }
    }
    const SysTime now = clock_.Now();
    while (!entries_.empty())
      FinishLocked(*entries_.begin()->second, RunOutcome::kCancelled, "shutdown", now, done);
    stopped_ = true;
  }
  Notify(done);
}

void Scheduler::WaitIdle() {
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return running_ == 0; });
  }
  JoinFinished();
}

void Scheduler::JoinFinished() {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(mu_);
    done.swap(finished_);
  }
  for (auto& t : done)
    if (t.joinable()) t.join();
}

void Scheduler::Tick() {
  std::lock_guard tick_lock(tick_mu_);
  JoinFinished();
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
  }
  const SysTime now = clock_.Now();
  EnqueueDue(now);
  StartEligible(now);
}

Scheduler::Pair& Scheduler::PairLocked(const std::string& key, SysTime now) {
  auto it = pairs_.find(key);
  if (it != pairs_.end()) return it->second;
  Pair p;
  auto loaded = LoadDueState(store_, key);
  if (!loaded.ok())
    LogWarning("scheduler: reading state " + key + ": " + loaded.status().ToString());
  else
    p.state = *loaded;
  if (!p.state.last_run && !p.state.first_seen) {
    p.state.first_seen = now;
    SaveStateLocked(key, p.state);
  }
  return pairs_.emplace(key, std::move(p)).first->second;
}

void Scheduler::SaveStateLocked(const std::string& key, const DueState& state) {
  Status s = store_.SetState(key, EncodeDueState(state));
  if (!s.ok()) LogWarning("scheduler: saving state " + key + ": " + s.ToString());
}

void Scheduler::EnqueueDue(SysTime now) {
  std::lock_guard lock(mu_);
  for (const auto& s : schedules_) {
    if (!s.enabled) continue;
    for (auto& target : ExpandSchedule(s, drives_, pools_)) {
      const std::string key = DueStateKey(s.name, target.key);
      Pair& p = PairLocked(key, now);
      DueState rebased = RebaseAfterClockJump(s, target.key, p.state, now);
      if (!(rebased == p.state)) {
        LogWarning("scheduler: the clock went back; " + key + " now counts from " + FormatUtc(now));
        p.state = rebased;
        SaveStateLocked(key, p.state);
      }
      if (p.pending > 0) continue;  // the previous slot is still being worked off
      auto due = NextDue(s, target.key, p.state, now);
      if (!due || *due > now) continue;
      p.before_slot = p.state;
      p.state.last_run = RecordedRunTime(s, target.key, *due, now);
      p.slot_started = false;
      SaveStateLocked(key, p.state);
      for (auto& job : target.jobs) {
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
        e->pair = key;
        entries_[run.id] = std::move(e);
        ++p.pending;
        LogDebug("scheduler: queued run " + std::to_string(run.id) + ": " +
                entries_[run.id]->job.Describe() + " (" + s.name + ")");
      }
      if (p.pending == 0) p.state = p.before_slot;  // nothing could be stored: retry later
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
    std::lock_guard lock(mu_);
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
      std::lock_guard lock(mu_);
      if (stopping_) return;
      auto it = entries_.find(id);
      if (it == entries_.end() || it->second->running) continue;  // cancelled meanwhile
      if (!CanStart(it->second->job, RunningJobsLocked(), config_)) continue;
      job = it->second->job;
    }
    // Probe outside the lock: it may run tools.
    std::vector<DriveState> states;
    std::string missing, unknown;
    for (const auto& drive_id : job.Drives()) {
      auto st = probe_.Probe(drive_id);
      if (!st.ok()) {
        if (st.status().code() == StatusCode::kNotFound)
          missing = st.status().message();
        else
          unknown = st.status().ToString();
        continue;
      }
      states.push_back(*st);
    }
    std::vector<Run> done;
    {
      std::lock_guard lock(mu_);
      auto it = entries_.find(id);
      if (it == entries_.end() || stopping_) continue;
      Entry& e = *it->second;
      // Scrub/resilver state from the inventory when the probe did not say.
      for (std::size_t i = 0; i < states.size(); ++i) {
        if (!states[i].pool_scan.empty()) continue;
        const std::string pool =
            job.pool.empty() ? PlacementOf(job.Drives()[i], pools_).pool : job.pool;
        for (const auto& p : pools_)
          if (p.name == pool && p.Busy()) states[i].pool_scan = p.scan.function;
      }
      bool present = true;
      for (const auto& d : job.Drives()) {
        bool found = false;
        for (const auto& have : drives_) found = found || (have.present && have.id == d);
        present = present && found;
      }
      if (!present || !missing.empty()) {
        LogWarning("scheduler: skipping run " + std::to_string(id) + " (" + job.Describe() +
                   "): the drive is gone" + (missing.empty() ? "" : ": " + missing));
        FinishLocked(e, RunOutcome::kSkipped, "missing", now, done);
      } else {
        DeferDecision d;
        if (!unknown.empty()) {
          d = DeferOrSkip(job, "state-unknown", unknown, config_, now);
        } else {
          d = DecideDeferral(job, states, config_, now);
        }
        if (d.action == DeferAction::kRun) {
          e.running = true;
          ++running_;
          e.run.outcome = RunOutcome::kRunning;
          e.run.started_at = ToUnixSeconds(now);
          e.run.reason.clear();
          e.run.progress = 0;
          Status s = store_.UpdateRun(e.run);
          if (!s.ok())
            LogWarning("scheduler: storing run " + std::to_string(id) + ": " + s.ToString());
          if (!e.pair.empty()) pairs_[e.pair].slot_started = true;
          LogInfo("scheduler: starting run " + std::to_string(id) + ": " + job.Describe());
          e.worker = std::thread([this, id] { Execute(id); });
        } else if (d.action == DeferAction::kDefer) {
          LogInfo("scheduler: deferring run " + std::to_string(id) + " (" + job.Describe() +
                  "): " + d.reason + ": " + d.detail);
          e.next_attempt = d.retry_at;
          if (e.run.outcome != RunOutcome::kDeferred || e.run.reason != d.reason) {
            e.run.outcome = RunOutcome::kDeferred;
            e.run.reason = d.reason;
            Status s = store_.UpdateRun(e.run);
            if (!s.ok())
              LogWarning("scheduler: storing run " + std::to_string(id) + ": " + s.ToString());
          }
        } else {
          LogInfo("scheduler: skipping run " + std::to_string(id) + " (" + job.Describe() +
                  "): still " + d.reason + " after " +
                  FormatDuration(config_.defer_window_seconds) + ": " + d.detail);
          FinishLocked(e, RunOutcome::kSkipped, d.reason, now, done);
        }
      }
    }
    Notify(done);
  }
}

void Scheduler::Execute(std::int64_t id) {
  Job job;
  std::shared_ptr<JobCancel> cancel;
  {
    std::lock_guard lock(mu_);
    Entry& e = *entries_.at(id);
    job = e.job;
    cancel = e.cancel;
  }
  ProgressFn progress = [this, id](double p) {
    if (!(p >= 0)) p = 0;  // NaN too
    p = std::min(p, 1.0);
    std::lock_guard lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    Entry& e = *it->second;
    e.run.progress = p;
    int step = static_cast<int>(std::floor(p * 20));
    if (step > e.stored_progress_step) {
      e.stored_progress_step = step;
      Status s = store_.UpdateRun(e.run);
      if (!s.ok())
        LogWarning("scheduler: storing progress of run " + std::to_string(id) + ": " +
                   s.ToString());
    }
  };
  Result<JobResult> result = executor_.Execute(job, *cancel, progress);

  std::vector<Run> done;
  {
    std::lock_guard lock(mu_);
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
    --running_;
    finished_.push_back(std::move(e.worker));
    LogInfo("scheduler: run " + std::to_string(id) + " (" + job.Describe() + ") " +
            std::string(RunOutcomeName(outcome)) + (reason.empty() ? "" : ": " + reason));
    FinishLocked(e, outcome, reason, clock_.Now(), done);
    wake_ = true;
  }
  cv_.notify_all();
  Notify(done);
}

void Scheduler::FinishLocked(Entry& e, RunOutcome outcome, std::string reason, SysTime now,
                             std::vector<Run>& done) {
  e.run.outcome = outcome;
  e.run.reason = std::move(reason);
  e.run.ended_at = ToUnixSeconds(now);
  Status s = store_.UpdateRun(e.run);
  if (!s.ok())
    LogError("scheduler: storing the end of run " + std::to_string(e.run.id) + ": " + s.ToString());
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
  std::lock_guard lock(mu_);
  if (stopping_) return Unavailable("the scheduler is shutting down");
  Job job;
  if (req.test == "pool-write" || req.test == "parallel") {
    ScheduleConfig adhoc;
    adhoc.name = "run-now";
    adhoc.tests = {req.test};
    for (auto& t : ExpandSchedule(adhoc, drives_, pools_))
      if (t.label == req.target && !t.jobs.empty()) job = t.jobs.front();
    if (job.pool.empty())
      return NotFound(std::string(req.test == "parallel" ? "no vdev 'POOL/VDEV' with two or more "
                                                           "known members named '"
                                                         : "no pool named '") +
                      req.target + "'");
  } else {
    const Drive* d = FindDrive(drives_, req.target);
    if (!d) return NotFound("no drive '" + req.target + "' (give an id, name or /dev path)");
    job = MakeDriveJob(req.test, *d, pools_);
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
  DP_ASSIGN_OR_RETURN(run.id, store_.InsertRun(run));
  job.run_id = run.id;
  LogDebug("scheduler: queued run " + std::to_string(run.id) + ": " + job.Describe() + " (" +
          req.trigger + ")");
  auto e = std::make_unique<Entry>();
  if (req.delay.count() > 0) e->next_attempt = job.queued_at;
  e->job = std::move(job);
  e->run = run;
  entries_[run.id] = std::move(e);
  wake_ = true;
  cv_.notify_all();
  return run.id;
}

Result<Run> Scheduler::GetRun(std::int64_t id) {
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(id);
    if (it != entries_.end()) return it->second->run;
  }
  DP_ASSIGN_OR_RETURN(auto run, store_.GetRun(id));
  if (!run) return NotFound("no run " + std::to_string(id));
  return *run;
}

Status Scheduler::Cancel(std::int64_t id) {
  std::vector<Run> done;
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) {
      auto stored = store_.GetRun(id);
      if (!stored.ok()) return stored.status();
      if (!*stored) return NotFound("no run " + std::to_string(id));
      if (Active((*stored)->outcome))
        return FailedPrecondition("run " + std::to_string(id) + " is not this daemon's");
      return FailedPrecondition("run " + std::to_string(id) + " already finished (" +
                                std::string(RunOutcomeName((*stored)->outcome)) + ")");
    }
    Entry& e = *it->second;
    if (e.running) {
      e.cancel_reason = "cancelled by request";
      e.cancel->Cancel();
      return Status::Ok();  // the worker records the outcome when the executor returns
    }
    FinishLocked(e, RunOutcome::kCancelled, "cancelled by request", clock_.Now(), done);
  }
  Notify(done);
  return Status::Ok();
}

std::vector<Run> Scheduler::ActiveRuns() const {
  std::lock_guard lock(mu_);
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
  std::lock_guard lock(mu_);
  const SysTime now = clock_.Now();
  return PlanSchedule(
      schedules_, drives_, pools_,
      [&](const std::string& s, const std::string& t) { return StateForPreviewLocked(s, t, now); },
      now, count);
}

}  // namespace dp
