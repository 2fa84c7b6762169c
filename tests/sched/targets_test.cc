#include "sched/targets.h"

#include <gtest/gtest.h>

#include "support/sched_test_util.h"

namespace dp {
namespace {

using testing::MakeDrive;
using testing::MakePool;
using testing::MakeSchedule;

TEST(TargetsTest, SelectionByIdNameModelAndPool) {
  std::vector<Drive> drives = {MakeDrive("wwn-1", "sda"), MakeDrive("wwn-2", "sdb"),
                               MakeDrive("wwn-3", "sdc"), MakeDrive("loop3", "bench-a")};
  drives[2].model = "Samsung SSD 870 EVO 1TB";
  drives[3].explicit_target = true;
  drives[3].dev_path = "/dev/loop3";
  std::vector<Pool> pools = {MakePool("tank", {{"wwn-1", "wwn-2"}})};
  DriveSelection all;
  for (const auto& d : drives) EXPECT_TRUE(SelectsDrive(all, d, pools)) << d.id;
  DriveSelection by;
  by.drives = {"wwn-1", "sdc"};
  EXPECT_TRUE(SelectsDrive(by, drives[0], pools));
  EXPECT_FALSE(SelectsDrive(by, drives[1], pools));
  EXPECT_TRUE(SelectsDrive(by, drives[2], pools));
  by = {};
  by.drives = {"/dev/loop3"};
  EXPECT_TRUE(SelectsDrive(by, drives[3], pools));
  by = {};
  by.models = {"Samsung*"};
  EXPECT_TRUE(SelectsDrive(by, drives[2], pools));
  EXPECT_FALSE(SelectsDrive(by, drives[0], pools));
  by = {};
  by.pools = {"tank"};
  EXPECT_TRUE(SelectsDrive(by, drives[1], pools));
  EXPECT_FALSE(SelectsDrive(by, drives[2], pools));
}

TEST(TargetsTest, ExpandsDriveAndPoolLevelTests) {
  std::vector<Drive> drives = {MakeDrive("a", "sda", "c0"), MakeDrive("b", "sdb", "c1"),
                               MakeDrive("c", "sdc")};
  drives[2].present = false;  // gone: not scheduled
  std::vector<Pool> pools = {MakePool("tank", {{"a", "b"}})};
  auto s = MakeSchedule("mix", {"seq", "parallel", "smart"}, "@daily");
  auto t = ExpandSchedule(s, drives, pools);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].key, "a");
  ASSERT_EQ(t[0].jobs.size(), 2u);
  EXPECT_EQ(t[0].jobs[0].test, "seq");
  EXPECT_EQ(t[0].jobs[1].test, "smart");
  EXPECT_EQ(t[0].jobs[0].pool, "tank");
  EXPECT_EQ(t[0].jobs[0].vdev, "mirror-0");
  EXPECT_EQ(t[0].jobs[0].trigger, "schedule:mix");
  EXPECT_EQ(t[0].jobs[0].controllers, std::vector<std::string>{"c0"});
  EXPECT_EQ(t[2].key, "vdev:tank/mirror-0");
  EXPECT_EQ(t[2].jobs[0].member_ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t[2].jobs[0].controllers, (std::vector<std::string>{"c0", "c1"}));
  EXPECT_EQ(t[2].jobs[0].Describe(), "parallel on tank/mirror-0");
  s.enabled = false;
  EXPECT_TRUE(ExpandSchedule(s, drives, pools).empty());
}

// Each pool-write job writes into its own pool's scratch directory: a pool
// without one in the configuration gets no job (a run asked for by hand,
// with no list, may name any pool).
TEST(TargetsTest, PoolWriteOnlyOnPoolsWithAScratchDirectory) {
  std::vector<Drive> drives = {MakeDrive("a", "sda"), MakeDrive("b", "sdb")};
  std::vector<Pool> pools = {MakePool("tank", {{"a"}}), MakePool("backup", {{"b"}})};
  auto s = MakeSchedule("write", {"pool-write"}, "@daily");
  s.write_pools = std::vector<std::string>{"backup"};
  auto t = ExpandSchedule(s, drives, pools);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].key, "pool:backup");
  EXPECT_EQ(t[0].jobs[0].pool, "backup");
  s.write_pools.reset();
  EXPECT_EQ(ExpandSchedule(s, drives, pools).size(), 2u);
}

}  // namespace
}  // namespace dp
