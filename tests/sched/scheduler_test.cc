#include "sched/scheduler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>

#include "base/fake_clock.h"
#include "sched/calendar.h"
#include "sched/due_state_io.h"
#include "support/capability.h"
#include "support/sched_test_util.h"

// DriveState{.field = ...} designated initializers name only what matters.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace dp {
namespace {

using namespace std::chrono_literals;
using testing::FakeExecutor;
using testing::FakeProbe;
using testing::MakeDrive;
using testing::MakePool;
using testing::MakeSchedule;
using testing::ScopedTz;
using testing::Utc;

class SchedulerTest : public ::testing::Test {
 protected:
  SchedulerTest() : tz_("UTC"), clock_(Utc(2026, 1, 1)) {}  // a Thursday

  std::unique_ptr<Scheduler> Make(std::vector<ScheduleConfig> schedules,
                                  SchedulerConfig config = {}) {
    SchedulerOptions o;
    o.tick = 5ms;
    o.on_run_finished = [this](const dp::Run& r) {
      std::lock_guard lock(mu_);
      finished_.push_back(r);
      // The run is stored before anyone hears of it.
      auto stored = store_.GetRun(r.id);
      if (!stored.ok() || !*stored || (*stored)->outcome != r.outcome) stored_first_ = false;
    };
    auto s =
        std::make_unique<Scheduler>(clock_, store_, exec_, probe_, std::move(schedules), config, o);
    s->UpdateInventory(drives_, pools_);
    return s;
  }

  // Advances the clock by `step` `n` times, ticking and letting jobs finish.
  void Step(Scheduler& s, int n, std::chrono::seconds step) {
    for (int i = 0; i < n; ++i) {
      clock_.Advance(step);
      s.Tick();
      s.WaitIdle();
    }
  }

  std::vector<dp::Run> Runs(const std::string& test = "", RunOutcome outcome = RunOutcome::kOk) {
    std::vector<dp::Run> out;
    for (const auto& r : store_.AllRuns())
      if ((test.empty() || r.test == test) && r.outcome == outcome) out.push_back(r);
    return out;
  }

  std::vector<dp::Run> Finished() {
    std::lock_guard lock(mu_);
    return finished_;
  }

  ScopedTz tz_;
  FakeClock clock_;
  MemorySchedulerStore store_;
  FakeExecutor exec_;
  FakeProbe probe_;
  std::vector<Drive> drives_ = {MakeDrive("wwn-a", "sda")};
  std::vector<Pool> pools_;
  std::mutex mu_;
  std::vector<dp::Run> finished_;
  bool stored_first_ = true;
};

TEST_F(SchedulerTest, RunNowReportsProgressAndCanBeCancelled) {
  auto s = Make({});
  exec_.set_hold(true);
  exec_.set_progress_then_wait(0.5);
  auto id = s->RunNow({"sda", "zones", "cli", false});
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  auto stored = *store_.GetRun(*id);
  ASSERT_TRUE(stored.has_value()) << "stored before the id is handed out";
  EXPECT_EQ(stored->outcome, RunOutcome::kQueued);
  EXPECT_EQ(stored->trigger, "cli");
  EXPECT_EQ(stored->drive_id, "wwn-a");

  s->Tick();
  ASSERT_TRUE(exec_.WaitRunning(1));
  dp::Run live;
  for (int i = 0; i < 2000; ++i) {
    live = *s->GetRun(*id);
    if (live.progress == 0.5) break;
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(live.outcome, RunOutcome::kRunning);
  EXPECT_DOUBLE_EQ(live.progress, 0.5);
  EXPECT_DOUBLE_EQ((*store_.GetRun(*id))->progress, 0.5) << "progress is stored in 5% steps";

  ASSERT_TRUE(s->Cancel(*id).ok());
  s->WaitIdle();
  dp::Run done = *s->GetRun(*id);
  EXPECT_EQ(done.outcome, RunOutcome::kCancelled);
  EXPECT_EQ(done.reason, "cancelled by request");
  EXPECT_TRUE(done.ended_at.has_value());
  EXPECT_EQ(s->Cancel(*id).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s->Cancel(4242).code(), StatusCode::kNotFound);
  EXPECT_EQ(s->GetRun(4242).status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(s->ActiveRuns().empty());
  EXPECT_TRUE(stored_first_);
}

TEST_F(SchedulerTest, RunNowCompletesAndIsStoredBeforeItIsAnnounced) {
  auto s = Make({});
  EXPECT_EQ(s->RunNow({"sda", "speed", "api", false}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(s->RunNow({"sdq", "seq", "api", false}).status().code(), StatusCode::kNotFound);
  auto id = s->RunNow({"/dev/sda", "seq", "api", false});
  ASSERT_TRUE(id.ok());
  s->Tick();
  s->WaitIdle();
  dp::Run r = *s->GetRun(*id);
  EXPECT_EQ(r.outcome, RunOutcome::kOk);
  EXPECT_DOUBLE_EQ(r.progress, 1.0);
  EXPECT_EQ(r.engine, "fake");
  ASSERT_EQ(Finished().size(), 1u);
  EXPECT_TRUE(stored_first_);
  // A failing executor gives a failed run with the reason.
  exec_.set_fail("wwn-a", IoError("read /dev/sda: Input/output error"));
  id = s->RunNow({"sda", "seq", "api", false});
  s->Tick();
  s->WaitIdle();
  r = *s->GetRun(*id);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_THAT(r.reason, ::testing::HasSubstr("Input/output error"));
}

TEST_F(SchedulerTest, WeeklyJobRunsExactlyOnceAWeekForMonths) {
  if (!ScopedTz::Available("Europe/Berlin")) DP_SKIP_WITHOUT("tzdata", "no tzdata");
  ScopedTz berlin("Europe/Berlin");  // crosses both DST transitions of 2026
  drives_ = {MakeDrive("wwn-a", "sda"), MakeDrive("wwn-b", "sdb"), MakeDrive("wwn-c", "sdc")};
  auto s = Make({MakeSchedule("weekly", {"zones", "seek"}, "0 3 * * sun", 3600),
                 MakeSchedule("smart", {"smart"}, "@every 4h", 1800)});
  const int weeks = 44;
  Step(*s, weeks * 7 * 24 * 6, 600s);  // ten-minute steps
  const SysTime end = clock_.Now();

  int sundays = 0;
  for (SysTime t = Utc(2026, 1, 1); t < end; t += 24h) sundays += ToLocal(t).weekday == 0;
  for (const char* test : {"zones", "seek"}) {
    std::map<std::string, std::set<std::string>> weeks_by_drive;
    std::map<std::string, int> count;
    for (const auto& r : Runs(test)) {
      LocalTime l = ToLocal(FromUnixSeconds(r.started_at));
      EXPECT_EQ(l.weekday, 0) << test << " ran on a Sunday";
      EXPECT_GE(l.hour, 3);
      EXPECT_LE(l.hour, 4) << "within the jitter and the queue's stagger";
      weeks_by_drive[r.drive_id].insert(std::to_string(l.year) + "-" + std::to_string(l.month) +
                                        "-" + std::to_string(l.day));
      ++count[r.drive_id];
    }
    ASSERT_EQ(count.size(), 3u);
    for (const auto& [drive, n] : count) {
      EXPECT_EQ(n, sundays) << drive << " " << test;
      EXPECT_EQ(weeks_by_drive[drive].size(), static_cast<std::size_t>(sundays));
    }
  }
  std::map<std::string, int> smart;
  for (const auto& r : Runs("smart")) ++smart[r.drive_id];
  const int expected = static_cast<int>((end - Utc(2026, 1, 1)) / 4h);
  for (const auto& [drive, n] : smart) {
    EXPECT_GE(n, expected - 1) << drive;
    EXPECT_LE(n, expected + 1) << drive;
  }
  EXPECT_TRUE(Runs("", RunOutcome::kFailed).empty());
  EXPECT_TRUE(stored_first_);
}

TEST_F(SchedulerTest, MembersOfOneVdevNeverReadAtTheSameTime) {
  drives_ = {MakeDrive("a1", "sda", "c0"), MakeDrive("a2", "sdb", "c0"),
             MakeDrive("b1", "sdc", "c0"), MakeDrive("b2", "sdd", "c0")};
  pools_ = {MakePool("tank", {{"a1", "b1"}, {"a2", "b2"}})};
  SchedulerConfig c;
  c.max_concurrent = 4;
  c.max_per_controller = 4;
  auto s = Make({MakeSchedule("reads", {"zones", "seq"}, "@every 1h")}, c);
  exec_.set_hold(true);
  std::size_t rounds = 0, executed = 0;
  for (; rounds < 10 && executed < 8; ++rounds) {
    s->Tick();
    std::size_t running = 0;
    for (const auto& r : s->ActiveRuns()) running += r.outcome == RunOutcome::kRunning;
    ASSERT_TRUE(exec_.WaitRunning(running));
    auto now_running = exec_.Running();
    EXPECT_EQ(now_running.size(), 2u) << "one per vdev, round " << rounds;
    std::set<std::string> vdevs;
    for (const auto& j : now_running)
      EXPECT_TRUE(vdevs.insert(j.vdev).second) << "two members of " << j.vdev << " at once";
    executed += now_running.size();
    exec_.ReleaseAll();
    s->WaitIdle();
    clock_.Advance(1s);
  }
  EXPECT_EQ(executed, 8u);
  EXPECT_EQ(rounds, 4u);
}

TEST_F(SchedulerTest, ControllerAndOverallCaps) {
  drives_ = {MakeDrive("a", "sda", "c0"), MakeDrive("b", "sdb", "c0"), MakeDrive("c", "sdc", "c1"),
             MakeDrive("d", "sdd", "c1")};
  for (int cap : {3, 1}) {
    SchedulerConfig c;
    c.max_per_controller = 1;
    c.max_concurrent = cap;
    MemorySchedulerStore store;
    Scheduler s(clock_, store, exec_, probe_, {MakeSchedule("r", {"seq"}, "@every 1h")}, c);
    s.UpdateInventory(drives_, {});
    exec_.set_hold(true);
    s.Tick();
    const std::size_t want = cap == 3 ? 2 : 1;  // one per controller, then the overall cap
    ASSERT_TRUE(exec_.WaitRunning(want));
    std::this_thread::sleep_for(20ms);
    auto running = exec_.Running();
    EXPECT_EQ(running.size(), want) << "cap " << cap;
    std::set<std::string> controllers;
    for (const auto& j : running) EXPECT_TRUE(controllers.insert(j.controllers[0]).second);
    exec_.ReleaseAll();
    s.WaitIdle();
    s.Stop();
  }
}

TEST_F(SchedulerTest, BusyDriveIsDeferredRetriedThenRuns) {
  SchedulerConfig c;  // retry every 15m, window 6h
  auto s = Make({MakeSchedule("hourly", {"seq"}, "0 * * * *")}, c);
  probe_.Set("wwn-a", DriveState{.busy_share = 0.4});
  s->Tick();           // 00:00: first seen
  Step(*s, 1, 3600s);  // 01:00: due
  auto deferred = Runs("seq", RunOutcome::kDeferred);
  ASSERT_EQ(deferred.size(), 1u);
  EXPECT_EQ(deferred[0].reason, "busy");
  Step(*s, 1, 900s);  // retried, still busy
  EXPECT_EQ(Runs("seq", RunOutcome::kDeferred).size(), 1u);
  EXPECT_TRUE(exec_.Executed().empty());
  probe_.Set("wwn-a", DriveState{});
  Step(*s, 1, 900s);
  auto ok = Runs("seq");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].id, deferred[0].id) << "the same run, now done";
  EXPECT_EQ(ok[0].reason, "");
}

TEST_F(SchedulerTest, DeferredBeyondTheWindowIsSkipped) {
  SchedulerConfig c;
  c.defer_window_seconds = 3600;
  c.retry_seconds = 600;
  auto s = Make({MakeSchedule("daily", {"seq", "smart"}, "0 3 * * *")}, c);
  probe_.Set("wwn-a", DriveState{.temperature_c = 63});
  s->Tick();
  Step(*s, 6 * 5, 600s);  // to 05:00
  auto skipped = Runs("seq", RunOutcome::kSkipped);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].reason, "temperature");
  EXPECT_EQ(*skipped[0].ended_at - skipped[0].started_at, 3600);
  EXPECT_EQ(Runs("smart").size(), 1u) << "reading SMART is fine on a hot drive";
  EXPECT_TRUE(exec_.Executed().size() == 1);
  // The next day, cooled down: runs.
  probe_.Set("wwn-a", DriveState{});
  Step(*s, 6 * 24, 600s);
  EXPECT_EQ(Runs("seq").size(), 1u);
}

TEST_F(SchedulerTest, ScrubbingPoolDefersItsMembers) {
  drives_ = {MakeDrive("a1", "sda"), MakeDrive("b1", "sdb"), MakeDrive("x", "sdc")};
  pools_ = {MakePool("tank", {{"a1", "b1"}})};
  pools_[0].scan.function = "scrub";
  pools_[0].scan.state = "in_progress";
  auto s = Make({MakeSchedule("r", {"zones"}, "@every 1d")});
  Step(*s, 1, 1s);
  auto deferred = Runs("zones", RunOutcome::kDeferred);
  ASSERT_EQ(deferred.size(), 2u) << "both members wait";
  for (const auto& r : deferred) EXPECT_EQ(r.reason, "scrub");
  ASSERT_EQ(Runs("zones").size(), 1u);
  EXPECT_EQ(Runs("zones")[0].drive_id, "x");
  // Resilvering, via the probe.
  probe_.Set("a1", DriveState{.pool_scan = "resilver"});
  Step(*s, 1, 900s);
  for (const auto& r : Runs("zones", RunOutcome::kDeferred))
    EXPECT_EQ(r.reason, r.drive_id == "a1" ? "resilver" : "scrub");
}

TEST_F(SchedulerTest, VanishedDriveIsSkippedAndTheDaemonGoesOn) {
  drives_ = {MakeDrive("wwn-a", "sda"), MakeDrive("wwn-b", "sdb")};
  auto s = Make({});
  auto a = s->RunNow({"sda", "seq", "api", false});
  auto b = s->RunNow({"sdb", "seq", "api", false});
  s->UpdateInventory({drives_[1]}, {});  // sda is gone
  s->Tick();
  s->WaitIdle();
  EXPECT_EQ(s->GetRun(*a)->outcome, RunOutcome::kSkipped);
  EXPECT_EQ(s->GetRun(*a)->reason, "missing");
  EXPECT_EQ(s->GetRun(*b)->outcome, RunOutcome::kOk);
  // Gone according to the probe.
  probe_.SetError("wwn-b", NotFound("/dev/sdb: no such device"));
  auto c = s->RunNow({"sdb", "seq", "api", false});
  s->Tick();
  EXPECT_EQ(s->GetRun(*c)->reason, "missing");
  // A probe that fails otherwise defers ("state-unknown").
  probe_.SetError("wwn-b", IoError("smartctl timed out"));
  auto d = s->RunNow({"sdb", "seq", "api", false});
  s->Tick();
  EXPECT_EQ(s->GetRun(*d)->outcome, RunOutcome::kDeferred);
  EXPECT_EQ(s->GetRun(*d)->reason, "state-unknown");
}

TEST_F(SchedulerTest, MissedRunsCatchUpOnceAtStartUp) {
  // Last weekly run three weeks before "now"; the box was off since.
  ASSERT_TRUE(store_
                  .SetState(DueStateKey("weekly", "wwn-a"),
                            EncodeDueState(DueState{Utc(2025, 12, 7, 3), std::nullopt}))
                  .ok());
  auto s = Make({MakeSchedule("weekly", {"zones"}, "0 3 * * sun")});
  Step(*s, 1, 1s);
  EXPECT_EQ(Runs("zones").size(), 1u);
  Step(*s, 24 * 2, 3600s);  // Thursday and Friday: nothing more
  EXPECT_EQ(Runs("zones").size(), 1u);
  Step(*s, 24 * 2, 3600s);  // through Sunday 03:00
  EXPECT_EQ(Runs("zones").size(), 2u);
}

TEST_F(SchedulerTest, RestartKeepsTheState) {
  std::vector<ScheduleConfig> schedules = {MakeSchedule("weekly", {"zones"}, "0 3 * * sun")};
  {
    auto s = Make(schedules);
    Step(*s, 3 * 24 + 4, 3600s);  // to Sunday 04:00
    EXPECT_EQ(Runs("zones").size(), 1u);
  }
  auto s = Make(schedules);
  Step(*s, 12, 3600s);
  EXPECT_EQ(Runs("zones").size(), 1u) << "no repeat after a restart";
  Step(*s, 7 * 24, 3600s);
  EXPECT_EQ(Runs("zones").size(), 2u);
}

TEST_F(SchedulerTest, ClockJumps) {
  auto s = Make({MakeSchedule("weekly", {"zones"}, "0 3 * * sun")});
  Step(*s, 3 * 24 + 4, 3600s);  // Sunday 2026-01-04 04:00
  ASSERT_EQ(Runs("zones").size(), 1u);
  // Backwards two days: no second run on the 4th, and the 11th still runs.
  clock_.Set(Utc(2026, 1, 2, 4));
  Step(*s, 6 * 24 * 9 - 6 * 2, 600s);  // to Sunday 11th 02:00
  EXPECT_EQ(Runs("zones").size(), 1u) << "no storm";
  Step(*s, 6 * 2, 600s);  // to 04:00
  EXPECT_EQ(Runs("zones").size(), 2u) << "no stall";
  // Forwards a month: one catch-up, not four.
  clock_.Set(Utc(2026, 2, 11, 12));
  Step(*s, 6, 600s);
  EXPECT_EQ(Runs("zones").size(), 3u);
  Step(*s, 24 * 3, 3600s);  // to Saturday 14th
  EXPECT_EQ(Runs("zones").size(), 3u);
  // Backwards a year: the weekly job runs within the week, not in a year.
  clock_.Set(Utc(2025, 2, 11, 12));
  Step(*s, 24 * 8, 3600s);
  EXPECT_EQ(Runs("zones").size(), 4u);
}

TEST_F(SchedulerTest, ShutdownCancelsAndGivesUnstartedSlotsBack) {
  drives_ = {MakeDrive("wwn-a", "sda"), MakeDrive("wwn-b", "sdb")};
  probe_.Set("wwn-b", DriveState{.busy_share = 0.9});
  {
    auto s = Make({MakeSchedule("daily", {"seq"}, "@every 1d")});
    exec_.set_hold(true);
    s->Tick();
    ASSERT_TRUE(exec_.WaitRunning(1));  // sda runs, sdb is deferred
    s->Stop();
    auto cancelled = Runs("seq", RunOutcome::kCancelled);
    ASSERT_EQ(cancelled.size(), 2u);
    for (const auto& r : cancelled) EXPECT_EQ(r.reason, "shutdown");
    s->Stop();  // idempotent
  }
  exec_.set_hold(false);
  probe_.Set("wwn-b", DriveState{});
  auto s = Make({MakeSchedule("daily", {"seq"}, "@every 1d")});
  Step(*s, 1, 60s);
  auto ok = Runs("seq");
  ASSERT_EQ(ok.size(), 1u) << "sdb's slot was given back; sda's had started";
  EXPECT_EQ(ok[0].drive_id, "wwn-b");
}

TEST_F(SchedulerTest, StartClosesStaleRunsAndTheLoopRunsRequests) {
  dp::Run stale;
  stale.drive_id = "wwn-a";
  stale.test = "seq";
  stale.outcome = RunOutcome::kRunning;
  auto running = *store_.InsertRun(stale);
  stale.outcome = RunOutcome::kDeferred;
  auto deferred = *store_.InsertRun(stale);
  auto s = Make({});
  ASSERT_TRUE(s->Start().ok());
  EXPECT_EQ((*store_.GetRun(running))->outcome, RunOutcome::kFailed);
  EXPECT_THAT((*store_.GetRun(running))->reason, ::testing::HasSubstr("interrupted"));
  EXPECT_EQ((*store_.GetRun(deferred))->outcome, RunOutcome::kCancelled);
  auto id = s->RunNow({"sda", "seek", "api", false});
  ASSERT_TRUE(id.ok());
  RunOutcome o = RunOutcome::kQueued;
  for (int i = 0; i < 5000 && o != RunOutcome::kOk; ++i) {
    std::this_thread::sleep_for(1ms);
    o = s->GetRun(*id)->outcome;
  }
  EXPECT_EQ(o, RunOutcome::kOk);
  s->Stop();
}

TEST_F(SchedulerTest, PreviewAgreesWithTheScheduler) {
  drives_ = {MakeDrive("wwn-a", "sda"), MakeDrive("wwn-b", "sdb")};
  pools_ = {MakePool("tank", {{"wwn-a", "wwn-b"}})};
  std::vector<ScheduleConfig> sc = {
      MakeSchedule("weekly", {"zones", "parallel"}, "0 3 * * sun", 7200)};
  auto plan = PlanSchedule(
      sc, drives_, pools_,
      [&](const std::string&, const std::string&) {
        return DueState{std::nullopt, clock_.Now()};
      },
      clock_.Now(), 3);
  ASSERT_EQ(plan.size(), 3u);  // sda, sdb, tank/mirror-0
  for (const auto& p : plan) {
    ASSERT_EQ(p.due.size(), 3u);
    EXPECT_EQ(p.due[1] - p.due[0], std::chrono::hours(24 * 7));
  }
  auto s = Make(sc);
  Step(*s, 6 * 24 * 4, 600s);  // through Sunday
  for (const auto& p : plan) {
    bool found = false;
    for (const auto& r : store_.AllRuns()) {
      if (r.test != p.tests[0] || (p.tests[0] == "zones" && r.drive_id != p.target_key)) continue;
      SysTime queued = FromUnixSeconds(r.started_at);
      EXPECT_GE(queued, p.due[0] - 600s) << p.label;
      EXPECT_LT(queued, p.due[0] + 1800s) << p.label;
      found = true;
    }
    EXPECT_TRUE(found) << p.label;
  }
  std::string text = PreviewSchedule(sc, drives_, pools_, &store_, clock_.Now(), 2);
  EXPECT_THAT(text, ::testing::HasSubstr("weekly  0 3 * * sun  jitter 2h  tests zones parallel"));
  EXPECT_THAT(text, ::testing::HasSubstr("  sda "));
  EXPECT_THAT(text, ::testing::HasSubstr("tank/mirror-0"));
  EXPECT_THAT(text, ::testing::HasSubstr("last Sun 2026-01-04"));
  EXPECT_THAT(text, ::testing::HasSubstr("next Sun 2026-01-11"));
  EXPECT_EQ(s->Upcoming(2).size(), 3u);
  EXPECT_THAT(PreviewSchedule({}, drives_, pools_, nullptr, clock_.Now(), 2),
              ::testing::HasSubstr("no schedules configured"));
}

}  // namespace
}  // namespace dp
