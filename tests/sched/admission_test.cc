#include "sched/admission.h"

#include <gtest/gtest.h>

#include "sched/targets.h"
#include "support/sched_test_util.h"

// DriveState{.field = ...} designated initializers name only what matters.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace dp {
namespace {

using namespace std::chrono_literals;
using testing::MakeDrive;
using testing::MakePool;
using testing::Utc;

// The scheduler's admission of one queued job, on plain data: what the probe
// answered, the inventory and the deferral window.
class AdmitTest : public ::testing::Test {
 protected:
  AdmitTest() : drives_{MakeDrive("wwn-a", "sda"), MakeDrive("wwn-b", "sdb")} {
    pools_ = {MakePool("tank", {{"wwn-a", "wwn-b"}})};
  }

  Job DriveJob(const std::string& test = "seq") {
    Job j = MakeDriveJob(test, drives_[0], pools_);
    j.queued_at = t0_;
    return j;
  }
  DeferDecision Decide(const Job& job, std::vector<Result<DriveState>> probed,
                       SysTime now) const {
    return Admit(job, probed, drives_, pools_, config_, now);
  }

  const SysTime t0_ = Utc(2026, 1, 4, 3);
  SchedulerConfig config_;  // retry 15 min, window 6 h
  std::vector<Drive> drives_;
  std::vector<Pool> pools_;
};

TEST_F(AdmitTest, AnIdlePresentDriveStarts) {
  DeferDecision d = Decide(DriveJob(), {DriveState{}}, t0_);
  EXPECT_EQ(d.action, DeferAction::kRun);
  EXPECT_EQ(d.reason, "");
}

TEST_F(AdmitTest, AGoneDriveIsSkippedAsMissingEvenWhenForced) {
  Job job = DriveJob();
  job.force = true;
  // The probe did not find it.
  DeferDecision d = Decide(job, {NotFound("no /dev/sda")}, t0_);
  EXPECT_EQ(d.action, DeferAction::kSkip);
  EXPECT_EQ(d.reason, kMissingReason);
  EXPECT_EQ(d.detail, "no /dev/sda");
  // The inventory no longer lists it as present, whatever the probe said.
  drives_[0].present = false;
  d = Decide(job, {DriveState{}}, t0_);
  EXPECT_EQ(d.action, DeferAction::kSkip);
  EXPECT_EQ(d.reason, kMissingReason);
  EXPECT_EQ(d.detail, "");
  drives_.erase(drives_.begin());
  EXPECT_EQ(Decide(job, {DriveState{}}, t0_).reason, kMissingReason);
}

TEST_F(AdmitTest, AnUnreadableStateDefersWithinTheWindowThenSkips) {
  Job job = DriveJob();
  DeferDecision d = Decide(job, {Internal("smartctl timed out")}, t0_ + 1h);
  EXPECT_EQ(d.action, DeferAction::kDefer);
  EXPECT_EQ(d.reason, "state-unknown");
  EXPECT_NE(d.detail.find("smartctl timed out"), std::string::npos) << d.detail;
  ASSERT_TRUE(d.retry_at.has_value());
  EXPECT_EQ(*d.retry_at, t0_ + 1h + std::chrono::seconds(config_.retry_seconds));

  d = Decide(job, {Internal("smartctl timed out")},
             t0_ + std::chrono::seconds(config_.defer_window_seconds));
  EXPECT_EQ(d.action, DeferAction::kSkip);
  EXPECT_EQ(d.reason, "state-unknown");

  job.force = true;
  EXPECT_EQ(Decide(job, {Internal("smartctl timed out")}, t0_).action, DeferAction::kRun);
}

TEST_F(AdmitTest, AScrubTheProbeDidNotSeeComesFromTheInventory) {
  pools_[0].scan.function = "scrub";
  pools_[0].scan.state = "in_progress";
  DeferDecision d = Decide(DriveJob(), {DriveState{}}, t0_);
  EXPECT_EQ(d.action, DeferAction::kDefer);
  EXPECT_EQ(d.reason, "scrub");
  // What the probe saw itself wins over the inventory's older view.
  EXPECT_EQ(Decide(DriveJob(), {DriveState{.pool_scan = "resilver"}}, t0_).reason, "resilver");
  // A SMART read minds only sleep.
  EXPECT_EQ(Decide(DriveJob("smart"), {DriveState{}}, t0_).action, DeferAction::kRun);
  // A finished scrub is no reason.
  pools_[0].scan.state = "finished";
  EXPECT_EQ(Decide(DriveJob(), {DriveState{}}, t0_).action, DeferAction::kRun);
}

TEST_F(AdmitTest, AVdevJobIsJudgedOnEveryMember) {
  ScheduleConfig s = testing::MakeSchedule("weekly", {"parallel"}, "0 3 * * 0");
  std::vector<ScheduleTarget> targets = ExpandSchedule(s, drives_, pools_);
  ASSERT_EQ(targets.size(), 1u);
  ASSERT_EQ(targets[0].jobs.size(), 1u);
  Job job = targets[0].jobs[0];
  job.queued_at = t0_;
  ASSERT_EQ(job.Drives().size(), 2u);
  EXPECT_EQ(Decide(job, {DriveState{}, DriveState{}}, t0_).action, DeferAction::kRun);
  // The second member is busy: the whole job waits, for that member's reason.
  DeferDecision d = Decide(job, {DriveState{}, DriveState{.busy_share = 0.5}}, t0_);
  EXPECT_EQ(d.action, DeferAction::kDefer);
  EXPECT_EQ(d.reason, "busy");
  // The first member is gone: skipped, though the second could run.
  EXPECT_EQ(Decide(job, {NotFound("gone"), DriveState{}}, t0_).reason, kMissingReason);
  // One member unreadable, the other scrubbing by the inventory: the
  // unknown state decides, and the answers stay matched to their drives.
  pools_[0].scan.function = "scrub";
  pools_[0].scan.state = "in_progress";
  EXPECT_EQ(Decide(job, {Internal("timeout"), DriveState{}}, t0_).reason, "state-unknown");
}

}  // namespace
}  // namespace dp
