#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace dp {
namespace {

using DriveStoreTest = testing::StoreFixture;
using testing::MakeDrive;
using testing::RawDb;

Drive FullDrive() {
  Drive d;
  d.id = "wwn-5000c500a1b2c3d4";
  d.dev_path = "/dev/sdc";
  d.name = "sdc";
  d.model = "ST4000VN008-2DR166";
  d.serial = "ZGY0ABCD";
  d.wwn = "5000c500a1b2c3d4";
  d.firmware = "SC60";
  d.size_bytes = 4000787030016ULL;
  d.logical_block_size = 512;
  d.physical_block_size = 4096;
  d.rotational = true;
  d.rotation_rpm = 5980;
  d.transport = "sata";
  d.stable_paths = {"/dev/disk/by-id/ata-ST4000VN008-2DR166_ZGY0ABCD",
                    "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4"};
  d.explicit_target = false;
  d.controller = "0000:00:1f.2";
  return d;
}

TEST_F(DriveStoreTest, RoundTripsEveryField) {
  Drive d = FullDrive();
  ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
  auto got = store_->GetDrive(d.id);
  ASSERT_TRUE(got.ok());
  ASSERT_TRUE(got->has_value());
  const Drive& g = **got;
  EXPECT_EQ(g.id, d.id);
  EXPECT_EQ(g.dev_path, d.dev_path);
  EXPECT_EQ(g.name, d.name);
  EXPECT_EQ(g.model, d.model);
  EXPECT_EQ(g.serial, d.serial);
  EXPECT_EQ(g.wwn, d.wwn);
  EXPECT_EQ(g.firmware, d.firmware);
  EXPECT_EQ(g.size_bytes, d.size_bytes);
  EXPECT_EQ(g.logical_block_size, 512u);
  EXPECT_EQ(g.physical_block_size, 4096u);
  EXPECT_EQ(g.rotational, std::optional<bool>(true));
  EXPECT_EQ(g.rotation_rpm, std::optional<int>(5980));
  EXPECT_EQ(g.transport, "sata");
  EXPECT_EQ(g.stable_paths, d.stable_paths);
  EXPECT_FALSE(g.explicit_target);
  EXPECT_EQ(g.controller, "0000:00:1f.2");
  EXPECT_TRUE(g.present);
  EXPECT_EQ(g.first_seen, 1000);
  EXPECT_EQ(g.last_seen, 1000);
}

TEST_F(DriveStoreTest, UnknownFieldsStayUnknown) {
  Drive d = MakeDrive("Samsung_SSD_870_S6PXNF0R", "sdd");
  d.explicit_target = true;
  ASSERT_TRUE(store_->UpsertDrive(d, 1).ok());
  auto got = store_->GetDrive(d.id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_FALSE((*got)->wwn.has_value());
  EXPECT_FALSE((*got)->rotational.has_value());
  EXPECT_FALSE((*got)->rotation_rpm.has_value());
  EXPECT_TRUE((*got)->stable_paths.empty());
  EXPECT_TRUE((*got)->explicit_target);
}

TEST_F(DriveStoreTest, GetUnknownDriveIsEmptyNotAnError) {
  auto got = store_->GetDrive("wwn-none");
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
  auto all = store_->ListDrives();
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->empty());
}

TEST_F(DriveStoreTest, KeyedByStableIdNotDevName) {
  Drive d = FullDrive();
  ASSERT_TRUE(store_->UpsertDrive(d, 100).ok());
  // Next boot the same disk is /dev/sdf.
  d.dev_path = "/dev/sdf";
  d.name = "sdf";
  d.firmware = "SC61";
  ASSERT_TRUE(store_->UpsertDrive(d, 200).ok());
  auto all = store_->ListDrives();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].dev_path, "/dev/sdf");
  EXPECT_EQ((*all)[0].firmware, "SC61");
  EXPECT_EQ((*all)[0].first_seen, 100);
  EXPECT_EQ((*all)[0].last_seen, 200);
}

TEST_F(DriveStoreTest, MissingDrivesAreKeptAndMarked) {
  ASSERT_TRUE(store_->UpsertDrive(MakeDrive("wwn-a", "sda"), 10).ok());
  ASSERT_TRUE(store_->UpsertDrive(MakeDrive("wwn-b", "sdb"), 10).ok());
  ASSERT_TRUE(store_->UpsertDrive(MakeDrive("wwn-c", "sdc"), 10).ok());
  auto run = store_->InsertRun(testing::MakeRun("wwn-b", "seq", 11));
  ASSERT_TRUE(run.ok());

  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-a", "wwn-c"}, 20).ok());
  auto all = store_->ListDrives();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 3u);
  // Present first, then by name.
  EXPECT_EQ((*all)[0].id, "wwn-a");
  EXPECT_EQ((*all)[1].id, "wwn-c");
  EXPECT_EQ((*all)[2].id, "wwn-b");
  EXPECT_TRUE((*all)[0].present);
  EXPECT_FALSE((*all)[2].present);
  EXPECT_EQ((*all)[2].last_seen, 10);
  // Its history stays.
  auto got = store_->GetRun(*run);
  ASSERT_TRUE(got.ok() && got->has_value());

  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT missing_since FROM drives WHERE id = 'wwn-b'"), 20);
  // Still missing later: missing_since keeps the first time.
  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-a", "wwn-c"}, 30).ok());
  EXPECT_EQ(raw.Int("SELECT missing_since FROM drives WHERE id = 'wwn-b'"), 20);

  // It comes back.
  ASSERT_TRUE(store_->UpsertDrive(MakeDrive("wwn-b", "sdb"), 40).ok());
  auto back = store_->GetDrive("wwn-b");
  ASSERT_TRUE(back.ok() && back->has_value());
  EXPECT_TRUE((*back)->present);
  EXPECT_EQ((*back)->last_seen, 40);
  EXPECT_EQ(raw.Text("SELECT missing_since FROM drives WHERE id = 'wwn-b'"), "");
}

TEST_F(DriveStoreTest, EmptyPresentListMarksAllMissing) {
  ASSERT_TRUE(store_->UpsertDrive(MakeDrive("wwn-a", "sda"), 10).ok());
  ASSERT_TRUE(store_->MarkMissingExcept({}, 20).ok());
  auto got = store_->GetDrive("wwn-a");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_FALSE((*got)->present);
}

TEST_F(DriveStoreTest, IdsWithQuotesAreDataNotSql) {
  Drive d = MakeDrive("odd'); DROP TABLE drives; --", "sdx");
  ASSERT_TRUE(store_->UpsertDrive(d, 1).ok());
  ASSERT_TRUE(store_->MarkMissingExcept({d.id}, 2).ok());
  auto got = store_->GetDrive(d.id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_TRUE((*got)->present);
}

TEST_F(DriveStoreTest, DriveWithoutIdIsRefused) {
  Drive d;
  EXPECT_EQ(store_->UpsertDrive(d, 1).code(), StatusCode::kInvalidArgument);
}

TEST_F(DriveStoreTest, SurvivesReopen) {
  ASSERT_TRUE(store_->UpsertDrive(FullDrive(), 5).ok());
  ASSERT_TRUE(store_->MarkMissingExcept({}, 6).ok());
  Reopen();
  auto got = store_->GetDrive(FullDrive().id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_FALSE((*got)->present);
  EXPECT_EQ((*got)->stable_paths, FullDrive().stable_paths);
}

}  // namespace
}  // namespace dp
