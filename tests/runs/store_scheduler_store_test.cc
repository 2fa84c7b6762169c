#include "runs/store_scheduler_store.h"

#include <gtest/gtest.h>

#include "base/fake_clock.h"
#include "sched/due_state_io.h"
#include "sched/scheduler.h"
#include "support/sched_test_util.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using namespace std::chrono_literals;

// The scheduler on the real SQLite store: runs and state survive a reopen.
TEST(StoreSchedulerStoreTest, RunsAndStateSurviveARestart) {
  testing::ScopedTz tz("UTC");
  dp::testing::TempDir dir;
  const std::string path = dir.Path("diskpulse.db");
  FakeClock clock(testing::Utc(2026, 1, 1));
  testing::FakeExecutor exec;
  testing::FakeProbe probe;
  Drive sda = testing::MakeDrive("wwn-a", "sda");
  std::vector<ScheduleConfig> schedules = {testing::MakeSchedule("daily", {"seq"}, "0 3 * * *")};
  std::int64_t run_now_id = 0;
  {
    auto store = Store::Open(path);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    ASSERT_TRUE((*store)->UpsertDrive(sda, ToUnixSeconds(clock.Now())).ok());
    StoreSchedulerStore ss(**store);
    Scheduler s(clock, ss, exec, probe, schedules, SchedulerConfig{});
    s.UpdateInventory({sda}, {});
    s.Tick();  // first seen at midnight
    auto id = s.RunNow({"sda", "random", "cli", false});
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    run_now_id = *id;
    for (int i = 0; i < 4 * 6; ++i) {  // to 04:00
      clock.Advance(600s);
      s.Tick();
      s.WaitIdle();
    }
    auto r = s.GetRun(run_now_id);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->outcome, RunOutcome::kOk);
    s.Stop();
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok());
  StoreSchedulerStore ss(**store);
  auto runs = (*store)->ListRuns(RunFilter{});
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 2u);
  for (const auto& r : *runs) {
    EXPECT_EQ(r.outcome, RunOutcome::kOk);
    EXPECT_EQ(r.drive_id, "wwn-a");
  }
  auto state = LoadDueState(ss, DueStateKey("daily", "wwn-a"));
  ASSERT_TRUE(state.ok());
  ASSERT_TRUE(state->last_run.has_value());
  EXPECT_EQ(*state->last_run, testing::Utc(2026, 1, 1, 3));
  // A new scheduler on the reopened store does not repeat today's run.
  Scheduler s(clock, ss, exec, probe, schedules, SchedulerConfig{});
  s.UpdateInventory({sda}, {});
  ASSERT_TRUE(s.Start().ok());
  s.Tick();
  s.WaitIdle();
  s.Stop();
  EXPECT_EQ((*store)->ListRuns(RunFilter{})->size(), 2u);
}

}  // namespace
}  // namespace dp
