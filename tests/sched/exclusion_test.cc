#include "sched/exclusion.h"

#include <gtest/gtest.h>

#include "sched/targets.h"
#include "support/sched_test_util.h"

namespace dp {
namespace {

using testing::MakeDrive;
using testing::MakePool;

class ExclusionTest : public ::testing::Test {
 protected:
  ExclusionTest() {
    drives_ = {MakeDrive("a1", "sda", "c0"), MakeDrive("a2", "sdb", "c0"),
               MakeDrive("b1", "sdc", "c1"), MakeDrive("b2", "sdd", "c1"),
               MakeDrive("x", "sde", "")};
    pools_ = {MakePool("tank", {{"a1", "b1"}, {"a2", "b2"}})};  // mirror-0: a1 b1
  }
  Job J(const std::string& test, const std::string& id) {
    return MakeDriveJob(test, *FindDrive(drives_, id), pools_);
  }
  std::vector<Drive> drives_;
  std::vector<Pool> pools_;
  SchedulerConfig config_;
};

TEST_F(ExclusionTest, SameVdevMembersNeverReadTogether) {
  std::string why;
  EXPECT_TRUE(Conflicts(J("zones", "a1"), J("seek", "b1"), &why));
  EXPECT_EQ(why, "vdev");
  EXPECT_FALSE(Conflicts(J("zones", "a1"), J("zones", "b2")));  // other vdev
  // Light SMART work does not exclude a sibling.
  EXPECT_FALSE(Conflicts(J("smart", "a1"), J("zones", "b1")));
  EXPECT_FALSE(Conflicts(J("smart-long", "a1"), J("zones", "b1")));
}

TEST_F(ExclusionTest, OneJobPerDriveWhateverTheTest) {
  std::string why;
  EXPECT_TRUE(Conflicts(J("smart", "x"), J("seq", "x"), &why));
  EXPECT_EQ(why, "drive");
}

TEST_F(ExclusionTest, PoolLevelJobs) {
  ScheduleConfig s;
  s.name = "p";
  s.tests = {"pool-write", "parallel"};
  auto targets = ExpandSchedule(s, drives_, pools_);
  ASSERT_EQ(targets.size(), 3u);  // pool:tank, vdev:tank/mirror-0, vdev:tank/mirror-1
  const Job& write = targets[0].jobs[0];
  const Job& par0 = targets[1].jobs[0];
  EXPECT_EQ(targets[0].key, "pool:tank");
  EXPECT_EQ(targets[1].key, "vdev:tank/mirror-0");
  std::string why;
  EXPECT_TRUE(Conflicts(write, J("seq", "x"), &why) == false);
  EXPECT_TRUE(Conflicts(write, J("seq", "b2"), &why));  // a member: shares the drive
  EXPECT_TRUE(Conflicts(par0, J("seq", "b1"), &why));
  EXPECT_FALSE(Conflicts(par0, J("seq", "b2")));
  EXPECT_TRUE(Conflicts(write, par0, &why));
}

TEST_F(ExclusionTest, CapsOverallAndPerController) {
  config_.max_concurrent = 2;
  config_.max_per_controller = 1;
  Job a1 = J("seq", "a1"), a2 = J("seq", "a2"), b2 = J("seq", "b2"), x = J("seq", "x");
  std::string why;
  EXPECT_FALSE(CanStart(a2, {&a1}, config_, &why));
  EXPECT_EQ(why, "controller");
  EXPECT_TRUE(CanStart(b2, {&a1}, config_));
  EXPECT_FALSE(CanStart(x, {&a1, &b2}, config_, &why));
  EXPECT_EQ(why, "max_concurrent");
  // SMART reads are not counted.
  Job sx = J("smart", "x");
  EXPECT_TRUE(CanStart(sx, {&a1, &b2}, config_));
  // Unknown controllers have no cap of their own.
  Drive y = MakeDrive("y", "sdf", "");
  drives_.push_back(y);
  config_.max_concurrent = 8;
  EXPECT_TRUE(CanStart(J("seq", "y"), {&x}, config_));
  // Greedy picking in queue order.
  auto picked = PickStartable({a1, a2, J("seq", "b1"), b2, x}, {}, config_);
  EXPECT_EQ(picked, (std::vector<std::size_t>{0, 3, 4}));
}

}  // namespace
}  // namespace dp
