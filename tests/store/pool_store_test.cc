#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace dp {
namespace {

using PoolStoreTest = testing::StoreFixture;
using testing::RawDb;

PoolMember Member(const std::string& path, const std::string& drive_id) {
  PoolMember m;
  m.path = path;
  m.state = "ONLINE";
  m.read_errors = 0;
  m.write_errors = 0;
  m.checksum_errors = 0;
  m.drive_id = drive_id;
  return m;
}

Pool Tank() {
  Pool p;
  p.name = "tank";
  p.state = "ONLINE";
  p.scan = {"scrub", "finished", std::nullopt, "scrub repaired 0B in 01:02:03 with 0 errors"};
  p.errors = "No known data errors";
  Vdev mirror;
  mirror.name = "mirror-0";
  mirror.type = "mirror";
  mirror.role = "data";
  mirror.state = "ONLINE";
  mirror.members = {Member("sda", "wwn-a"), Member("sdb", "wwn-b")};
  Vdev log;
  log.name = "nvme0n1";
  log.type = "disk";
  log.role = "log";
  log.state = "ONLINE";
  log.members = {Member("nvme0n1", "")};
  p.vdevs = {mirror, log};
  return p;
}

TEST_F(PoolStoreTest, NoObservationMeansNoPools) {
  auto pools = store_->LatestPools();
  ASSERT_TRUE(pools.ok());
  EXPECT_TRUE(pools->empty());
}

TEST_F(PoolStoreTest, RoundTripsLayoutAndState) {
  Pool md;
  md.name = "md0";
  md.kind = "md";
  md.state = "clean";
  md.scan = {"resilver", "in_progress", 42.5, "recovery = 42.5%"};
  Vdev raid;
  raid.name = "raid1";
  raid.type = "mirror";
  raid.role = "data";
  raid.state = "clean";
  PoolMember odd = Member("sdc1", "wwn-c");
  odd.read_errors.reset();  // a row without counters
  odd.write_errors.reset();
  odd.checksum_errors.reset();
  odd.note = "(resilvering)";
  raid.members = {odd};
  md.vdevs = {raid};
  Pool tank = Tank();
  tank.vdevs[0].members[1].checksum_errors = 12;
  tank.vdevs[0].members[1].counters_approximate = true;
  tank.status = "One or more devices has experienced an error resulting in data corruption.";
  tank.error_files = {"/tank/photos/2019/img_0001.jpg", "tank/vm@snap:<0x1>"};
  PoolMember nested = Member("replacing-1", "");
  nested.container = true;
  PoolMember inner = Member("sdz", "wwn-z");
  inner.parent = "replacing-1";
  tank.vdevs[0].members.push_back(nested);
  tank.vdevs[0].members.push_back(inner);

  ASSERT_TRUE(store_->RecordPools({tank, md}, 100).ok());
  auto pools = store_->LatestPools();
  ASSERT_TRUE(pools.ok());
  ASSERT_EQ(pools->size(), 2u);
  const Pool& t = (*pools)[0];
  EXPECT_EQ(t.name, "tank");
  EXPECT_EQ(t.kind, "zfs");
  EXPECT_EQ(t.state, "ONLINE");
  EXPECT_EQ(t.scan.function, "scrub");
  EXPECT_EQ(t.scan.state, "finished");
  EXPECT_FALSE(t.scan.percent.has_value());
  EXPECT_EQ(t.scan.text, tank.scan.text);
  EXPECT_EQ(t.errors, "No known data errors");
  EXPECT_EQ(t.status, tank.status);
  EXPECT_EQ(t.error_files, tank.error_files);
  ASSERT_EQ(t.vdevs.size(), 2u);
  EXPECT_EQ(t.vdevs[0].name, "mirror-0");
  EXPECT_EQ(t.vdevs[0].type, "mirror");
  EXPECT_EQ(t.vdevs[0].role, "data");
  ASSERT_EQ(t.vdevs[0].members.size(), 4u);
  EXPECT_EQ(t.vdevs[0].members[0].path, "sda");
  EXPECT_EQ(t.vdevs[0].members[0].drive_id, "wwn-a");
  EXPECT_FALSE(t.vdevs[0].members[0].counters_approximate);
  EXPECT_EQ(t.vdevs[0].members[1].checksum_errors, std::optional<std::uint64_t>(12));
  EXPECT_TRUE(t.vdevs[0].members[1].counters_approximate);
  EXPECT_TRUE(t.vdevs[0].members[2].container);
  EXPECT_EQ(t.vdevs[0].members[2].path, "replacing-1");
  EXPECT_FALSE(t.vdevs[0].members[3].container);
  EXPECT_EQ(t.vdevs[0].members[3].parent, "replacing-1");
  EXPECT_EQ(t.vdevs[1].role, "log");
  EXPECT_EQ(t.vdevs[1].members[0].drive_id, "");

  const Pool& m = (*pools)[1];
  EXPECT_EQ(m.kind, "md");
  EXPECT_TRUE(m.Busy());
  EXPECT_EQ(m.scan.percent, std::optional<double>(42.5));
  ASSERT_EQ(m.vdevs.size(), 1u);
  ASSERT_EQ(m.vdevs[0].members.size(), 1u);
  EXPECT_FALSE(m.vdevs[0].members[0].read_errors.has_value());
  EXPECT_EQ(m.vdevs[0].members[0].note, "(resilvering)");
}

TEST_F(PoolStoreTest, MembershipIsKeptOverTime) {
  ASSERT_TRUE(store_->RecordPools({Tank()}, 100).ok());
  ASSERT_TRUE(store_->RecordPools({Tank()}, 200).ok());
  // sdb (wwn-b) is replaced by a new disk that takes the same name.
  Pool replaced = Tank();
  replaced.vdevs[0].members[1].drive_id = "wwn-new";
  ASSERT_TRUE(store_->RecordPools({replaced}, 300).ok());

  auto pools = store_->LatestPools();
  ASSERT_TRUE(pools.ok());
  ASSERT_EQ(pools->size(), 1u);
  ASSERT_EQ((*pools)[0].vdevs[0].members.size(), 2u);
  EXPECT_EQ((*pools)[0].vdevs[0].members[1].drive_id, "wwn-new");

  RawDb raw(db_path_);
  EXPECT_EQ(raw.Rows("SELECT drive_id, first_seen, last_seen, current FROM pool_members "
                     "WHERE path = 'sdb' ORDER BY first_seen"),
            "wwn-b|100|200|0\nwwn-new|300|300|1");
  EXPECT_EQ(raw.Rows("SELECT first_seen, last_seen FROM pools WHERE name = 'tank'"), "100|300");
}

TEST_F(PoolStoreTest, APoolThatGoesAwayIsNotLatestButKept) {
  Pool other = Tank();
  other.name = "backup";
  ASSERT_TRUE(store_->RecordPools({Tank(), other}, 100).ok());
  ASSERT_TRUE(store_->RecordPools({Tank()}, 200).ok());
  auto pools = store_->LatestPools();
  ASSERT_TRUE(pools.ok());
  ASSERT_EQ(pools->size(), 1u);
  EXPECT_EQ((*pools)[0].name, "tank");
  // Even within the same second.
  ASSERT_TRUE(store_->RecordPools({}, 200).ok());
  pools = store_->LatestPools();
  ASSERT_TRUE(pools.ok());
  EXPECT_TRUE(pools->empty());

  RawDb raw(db_path_);
  EXPECT_EQ(raw.Rows("SELECT name, last_seen FROM pools ORDER BY name"), "backup|100\ntank|200");
}

TEST_F(PoolStoreTest, OrderFollowsTheLatestObservation) {
  Pool a = Tank(), b = Tank();
  a.name = "alpha";
  b.name = "beta";
  ASSERT_TRUE(store_->RecordPools({a, b}, 1).ok());
  ASSERT_TRUE(store_->RecordPools({b, a}, 2).ok());
  auto pools = store_->LatestPools();
  ASSERT_TRUE(pools.ok());
  ASSERT_EQ(pools->size(), 2u);
  EXPECT_EQ((*pools)[0].name, "beta");
  EXPECT_EQ((*pools)[1].name, "alpha");
}

}  // namespace
}  // namespace dp
