// Re-baseline marks: history kept, latest wins per drive x test, and the
// v2 -> v3 migration of a database an earlier diskpulse left.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/store_test_util.h"

namespace dp {
namespace {

using ::testing::HasSubstr;

class RebaselineStoreTest : public testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-b", "sdb"), 1).ok());
  }

  std::int64_t Mark(const std::string& drive, const std::string& test, std::int64_t at,
                    const std::string& reason) {
    RebaselineMark m;
    m.drive_id = drive;
    m.test = test;
    m.at = at;
    m.reason = reason;
    m.who = "test";
    auto id = store_->InsertRebaseline(m);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : 0;
  }

  std::int64_t LatestAt(const std::string& drive, const std::string& test) {
    auto m = store_->LatestRebaseline(drive, test);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    return m.ok() && *m ? (*m)->at : 0;
  }
};

TEST_F(RebaselineStoreTest, RoundTripsAndKeepsHistory) {
  EXPECT_EQ(LatestAt("wwn-a", ""), 0);  // none yet
  std::int64_t first = Mark("wwn-a", "", 100, "new cable");
  std::int64_t second = Mark("wwn-a", "seq", 200, "firmware changed from 81.00A81 to 83.00A83");
  EXPECT_GT(second, first);

  auto latest = store_->LatestRebaseline("wwn-a", "");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->id, second);
  EXPECT_EQ((*latest)->drive_id, "wwn-a");
  EXPECT_EQ((*latest)->test, "seq");
  EXPECT_EQ((*latest)->at, 200);
  EXPECT_EQ((*latest)->reason, "firmware changed from 81.00A81 to 83.00A83");
  EXPECT_EQ((*latest)->who, "test");

  auto all = store_->ListRebaselines("wwn-a", 0);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);  // history: both requests kept, newest first
  EXPECT_EQ((*all)[0].id, second);
  EXPECT_EQ((*all)[1].id, first);
  EXPECT_EQ((*all)[1].test, "");  // every test (NULL in the table)
  EXPECT_EQ(store_->ListRebaselines("wwn-a", 1)->size(), 1u);
  EXPECT_TRUE(store_->ListRebaselines("wwn-b", 0)->empty());

  testing::RawDb raw(db_path_);
  EXPECT_EQ(
      raw.Text("SELECT ifnull(test, 'NULL') FROM rebaselines WHERE id = " + std::to_string(first)),
      "NULL");
  Reopen();
  EXPECT_EQ(store_->ListRebaselines("wwn-a", 0)->size(), 2u);
}

TEST_F(RebaselineStoreTest, LatestMarkThatAppliesToTheTestWins) {
  Mark("wwn-a", "", 100, "drive-wide");
  Mark("wwn-a", "seq", 200, "seq only");
  EXPECT_EQ(LatestAt("wwn-a", "seq"), 200);
  EXPECT_EQ(LatestAt("wwn-a", "random"), 100);  // the seq mark does not touch random
  EXPECT_EQ(LatestAt("wwn-a", ""), 200);
  Mark("wwn-a", "", 300, "firmware");
  EXPECT_EQ(LatestAt("wwn-a", "seq"), 300);  // a later drive-wide mark covers seq too
  EXPECT_EQ(LatestAt("wwn-a", "random"), 300);
  EXPECT_EQ(LatestAt("wwn-b", "seq"), 0);  // marks are per drive
  // Same second: the later request (higher id) wins.
  std::int64_t tie = Mark("wwn-a", "", 300, "again");
  EXPECT_EQ((*store_->LatestRebaseline("wwn-a", "seq"))->id, tie);
}

TEST_F(RebaselineStoreTest, UnknownOrMissingDriveIsRefused) {
  RebaselineMark m;
  m.drive_id = "wwn-nope";
  m.at = 1;
  auto id = store_->InsertRebaseline(m);
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(id.status().message(), HasSubstr("unknown drive 'wwn-nope'"));
  m.drive_id = "";
  EXPECT_EQ(store_->InsertRebaseline(m).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(RebaselineStoreTest, AlertResolutionRoundTrips) {
  Alert a;
  a.drive_id = "wwn-a";
  a.condition = "slowdown:seq:qd8-1m:mb_per_s";
  a.severity = "warning";
  a.opened_at = a.updated_at = 10;
  auto id = store_->InsertAlert(a);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ((*store_->GetAlert(*id))->resolution, "");
  a.id = *id;
  a.state = "resolved";
  a.resolved_at = 20;
  a.resolution = "re-baselined: firmware changed from A to B";
  ASSERT_TRUE(store_->UpdateAlert(a).ok());
  auto got = store_->GetAlert(*id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->state, "resolved");
  EXPECT_EQ((*got)->resolution, "re-baselined: firmware changed from A to B");
}

// A version-2 file made by hand (the first two migrations, as the previous
// diskpulse release wrote them) with a drive and an open alert: opening it
// migrates to the latest version, keeps the data and takes marks.
TEST(RebaselineMigrationTest, VersionTwoDatabaseIsUpgraded) {
  testing::TempDir dir;
  const std::string path = dir.Path("diskpulse.db");
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    const auto& all = SchemaMigrations();
    ASSERT_GE(all.size(), 3u);
    ASSERT_EQ(all[2].version, 3);
    ASSERT_TRUE(ApplyMigrations(**db, {all[0], all[1]}).ok());
    ASSERT_EQ(*(*db)->QueryInt("PRAGMA user_version"), 2);
    ASSERT_TRUE((*db)
                    ->Exec("INSERT INTO drives (id, name, firmware, controller, first_seen, "
                           "last_seen) VALUES ('wwn-old', 'sdb', '81.00A81', 'pci-1', 5, 6);"
                           "INSERT INTO alerts (drive_id, condition, severity, state, "
                           "opened_at, updated_at) VALUES ('wwn-old', 'slowdown:seq', "
                           "'warning', 'open', 7, 7)")
                    .ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  EXPECT_GE(Store::LatestSchemaVersion(), 3);
  auto d = (*store)->GetDrive("wwn-old");
  ASSERT_TRUE(d.ok() && d->has_value());
  EXPECT_EQ((*d)->firmware, "81.00A81");
  EXPECT_EQ((*d)->controller, "pci-1");
  auto alerts = (*store)->ListAlerts({});
  ASSERT_TRUE(alerts.ok());
  ASSERT_EQ(alerts->size(), 1u);
  // Version 11 closes per-series slowdown alerts: they are one alert per
  // drive event now, opened again by the next run if the drive is slow.
  EXPECT_EQ((*alerts)[0].state, "resolved");
  EXPECT_EQ((*alerts)[0].resolved_at, 7);
  EXPECT_EQ((*alerts)[0].resolution.rfind("superseded: ", 0), 0u) << (*alerts)[0].resolution;
  EXPECT_EQ((*alerts)[0].opened_summary, "");  // the new columns' default
  RebaselineMark m;
  m.drive_id = "wwn-old";
  m.at = 8;
  m.reason = "after upgrade";
  ASSERT_TRUE((*store)->InsertRebaseline(m).ok());
  EXPECT_EQ((*(*store)->LatestRebaseline("wwn-old", "seq"))->reason, "after upgrade");
}

}  // namespace
}  // namespace dp
