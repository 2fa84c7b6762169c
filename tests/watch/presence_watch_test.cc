// watch/presence_watch.h: what counts as a change between two looks, and a
// watch over a replayed `zpool status` (real captures of one pool before
// and after a member failed) that reports the change once.
#include "watch/presence_watch.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "base/fake_clock.h"
#include "base/replay_command_runner.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

PresenceLook Look(std::set<std::string> disks, std::map<std::string, std::string> pools) {
  PresenceLook l;
  l.disks_read = l.pools_read = true;
  l.disks = std::move(disks);
  l.pools = std::move(pools);
  return l;
}

TEST(PresenceChangesTest, DisksGoneAndNewAndPoolStates) {
  PresenceLook a = Look({"sda", "sdb"}, {{"zfs:tank", "ONLINE sda=ONLINE"}});
  EXPECT_TRUE(PresenceChanges(a, a).empty());
  PresenceLook b = Look({"sda", "sdc"}, {{"zfs:tank", "DEGRADED sda=REMOVED"}});
  auto c = PresenceChanges(a, b);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], "sdb gone");
  EXPECT_EQ(c[1], "sdc appeared");
  EXPECT_EQ(c[2], "pool zfs:tank: ONLINE sda=ONLINE -> DEGRADED sda=REMOVED");
  EXPECT_EQ(PresenceChanges(a, Look({"sda", "sdb"}, {})), std::vector<std::string>{"pool zfs:tank gone"});
}

TEST(PresenceChangesTest, WhatCouldNotBeReadIsNotAChange) {
  PresenceLook a = Look({"sda"}, {{"zfs:tank", "ONLINE"}});
  PresenceLook unread;  // the listing failed and zpool hung
  EXPECT_TRUE(PresenceChanges(a, unread).empty());
  EXPECT_TRUE(PresenceChanges(unread, a).empty());
}

TEST(PresenceWatchTest, PoolDegradingBetweenLooksIsOneChange) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.Path("sys/block"));
  Config config;
  config.inventory.platform = "linux";
  config.inventory.sysfs_root = dir.Path("sys");
  config.inventory.dev_root = dir.Path("dev");
  config.inventory.udev_data_dir = dir.Path("udev");
  config.inventory.proc_root = dir.Path("proc");
  ReplayCommandRunner runner;
  runner.AddOutput({"zpool", "status", "-j", "--json-int", "-P"}, "", 2, "invalid option 'j'\n");
  for (const char* f : {"linux-mirror2x-resilvered.txt", "linux-mirror2x-resilvered.txt",
                        "linux-mirror2x-degraded-unavail-corrupted-data.txt"})
    runner.AddOutput({"zpool", "status", "-P", "-p"}, ReadFile(FixturePath(std::string("zpool/") + f)));
  FakeClock clock;
  std::vector<std::vector<std::string>> told;
  int looks = 0;
  PresenceWatch watch(
      config, runner, clock, [&](const std::vector<std::string>& c) { told.push_back(c); },
      [&](const PresenceLook& l) {
        ++looks;
        EXPECT_TRUE(l.pools_read);
      });
  EXPECT_TRUE(watch.Look().empty());  // the first look is the picture to compare with
  EXPECT_TRUE(watch.Look().empty());
  auto changes = watch.Look();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_NE(changes[0].find("pool zfs:dummy: ONLINE"), std::string::npos) << changes[0];
  EXPECT_NE(changes[0].find("-> DEGRADED"), std::string::npos) << changes[0];
  EXPECT_NE(changes[0].find("loop3=UNAVAIL"), std::string::npos) << changes[0];
  EXPECT_TRUE(watch.Look().empty());  // still DEGRADED: nothing new
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(looks, 4);
}

}  // namespace
}  // namespace dp
