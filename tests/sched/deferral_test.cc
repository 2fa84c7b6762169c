#include "sched/deferral.h"

#include <gtest/gtest.h>

#include "support/sched_test_util.h"

// DriveState{.field = ...} designated initializers name only what matters.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace dp {
namespace {

using namespace std::chrono_literals;
using testing::Utc;

Job MakeJob(const std::string& test, SysTime queued) {
  Job j;
  j.test = test;
  j.drive_id = "sda";
  j.queued_at = queued;
  return j;
}

TEST(DeferralTest, EachReason) {
  SchedulerConfig c;  // busy_above 0.10, max 55°C
  const SysTime t0 = Utc(2026, 1, 4, 3);
  Job j = MakeJob("zones", t0);
  auto reason = [&](DriveState s) { return DecideDeferral(j, {s}, c, t0).reason; };
  EXPECT_EQ(DecideDeferral(j, {DriveState{}}, c, t0).action, DeferAction::kRun);
  EXPECT_EQ(reason(DriveState{.busy_share = 0.3}), "busy");
  EXPECT_EQ(reason(DriveState{.busy_share = 0.05}), "");
  EXPECT_EQ(reason(DriveState{.asleep = true}), "asleep");
  EXPECT_EQ(reason(DriveState{.temperature_c = 60}), "temperature");
  EXPECT_EQ(reason(DriveState{.temperature_c = 55}), "");
  EXPECT_EQ(reason(DriveState{.pool_scan = "scrub"}), "scrub");
  EXPECT_EQ(reason(DriveState{.pool_scan = "resilver"}), "resilver");
  EXPECT_EQ(reason(DriveState{.self_test_running = true}), "self-test");
  // The most important reason wins: asleep > resilver > scrub > ... > busy.
  EXPECT_EQ(reason(DriveState{.busy_share = 0.9, .asleep = true}), "asleep");
  EXPECT_EQ(reason(DriveState{.busy_share = 0.9, .pool_scan = "scrub"}), "scrub");
  // Across the drives of a pool-level job too.
  EXPECT_EQ(
      DecideDeferral(j, {DriveState{.busy_share = 0.9}, DriveState{.asleep = true}}, c, t0).reason,
      "asleep");
  auto d = DecideDeferral(j, {DriveState{.temperature_c = 61}}, c, t0);
  EXPECT_EQ(d.detail, "61°C > 55°C");
}

TEST(DeferralTest, SmartReadsOnlyMindSleep) {
  SchedulerConfig c;
  const SysTime t0 = Utc(2026, 1, 4, 3);
  Job smart = MakeJob("smart", t0);
  EXPECT_EQ(
      DecideDeferral(
          smart, {DriveState{.busy_share = 0.9, .temperature_c = 70, .pool_scan = "scrub"}}, c, t0)
          .action,
      DeferAction::kRun);
  EXPECT_EQ(DecideDeferral(smart, {DriveState{.asleep = true}}, c, t0).reason, "asleep");
  // Self-tests mind everything.
  EXPECT_EQ(
      DecideDeferral(MakeJob("smart-long", t0), {DriveState{.pool_scan = "scrub"}}, c, t0).reason,
      "scrub");
}

TEST(DeferralTest, RetriedWithinTheWindowThenSkipped) {
  SchedulerConfig c;
  c.defer_window_seconds = 3600;
  c.retry_seconds = 25 * 60;
  const SysTime t0 = Utc(2026, 1, 4, 3);
  Job j = MakeJob("seq", t0);
  DriveState busy{.busy_share = 0.5};
  auto d = DecideDeferral(j, {busy}, c, t0);
  EXPECT_EQ(d.action, DeferAction::kDefer);
  EXPECT_EQ(*d.retry_at, t0 + 25min);
  d = DecideDeferral(j, {busy}, c, t0 + 50min);
  EXPECT_EQ(d.action, DeferAction::kDefer);
  EXPECT_EQ(*d.retry_at, t0 + 60min) << "the last look is at the window's end";
  d = DecideDeferral(j, {busy}, c, t0 + 60min);
  EXPECT_EQ(d.action, DeferAction::kSkip);
  EXPECT_EQ(d.reason, "busy");
  // Not busy any more inside the window: runs.
  EXPECT_EQ(DecideDeferral(j, {DriveState{}}, c, t0 + 59min).action, DeferAction::kRun);
}

TEST(DeferralTest, ForcedJobsRun) {
  SchedulerConfig c;
  Job j = MakeJob("seq", Utc(2026, 1, 1));
  j.force = true;
  EXPECT_EQ(DecideDeferral(j, {DriveState{.busy_share = 1}}, c, Utc(2026, 1, 1)).action,
            DeferAction::kRun);
}

}  // namespace
}  // namespace dp
