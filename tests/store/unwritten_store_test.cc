// Unwritten points and jobs in the store: round trip through AddMeasurements,
// RunPoints and History, and the v4 -> v5 migration of a database an earlier
// diskpulse left (old points read back as written, one job).
#include <gtest/gtest.h>

#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/store_test_util.h"

namespace dp {
namespace {

BenchPoint RandomPoint(bool unwritten) {
  BenchPoint p;
  p.test = "random";
  p.block_size = 4096;
  p.queue_depth = 32;
  p.iops = 250000;
  p.mb_per_s = 1024;
  p.jobs = 2;
  p.unwritten = unwritten;
  if (unwritten) p.unwritten_reason = "128 of 128 checked reads returned only zeros";
  return p;
}

class UnwrittenStoreTest : public testing::StoreFixture {};

TEST_F(UnwrittenStoreTest, FlagReasonAndJobsRoundTripAndReachHistory) {
  ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "nvme0n1"), 1).ok());
  auto run1 = store_->InsertRun(testing::MakeRun("wwn-a", "random", 100));
  auto run2 = store_->InsertRun(testing::MakeRun("wwn-a", "random", 200));
  ASSERT_TRUE(run1.ok() && run2.ok());
  ASSERT_TRUE(store_->AddMeasurements(*run1, {RandomPoint(false)}).ok());
  ASSERT_TRUE(store_->AddMeasurements(*run2, {RandomPoint(true)}).ok());
  auto points = store_->RunPoints(*run2);
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  ASSERT_EQ(points->size(), 1u);
  EXPECT_TRUE((*points)[0].unwritten);
  EXPECT_EQ((*points)[0].unwritten_reason, "128 of 128 checked reads returned only zeros");
  EXPECT_EQ((*points)[0].jobs, 2u);
  auto old = store_->RunPoints(*run1);
  ASSERT_TRUE(old.ok());
  EXPECT_FALSE((*old)[0].unwritten);
  EXPECT_EQ((*old)[0].unwritten_reason, "");

  HistoryQuery q;
  q.drive_id = "wwn-a";
  q.test = "random";
  q.metric = "iops";
  auto h = store_->History(q);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ASSERT_EQ(h->size(), 2u);
  EXPECT_FALSE((*h)[0].unwritten);
  EXPECT_TRUE((*h)[1].unwritten);
}

// A version-4 file made by hand (the first four migrations) with a run and a
// point: opening it migrates to the latest version and keeps the point, read
// back as written with one job.
TEST(UnwrittenMigrationTest, VersionFourDatabaseIsUpgraded) {
  testing::TempDir dir;
  const std::string path = dir.Path("diskpulse.db");
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    const auto& all = SchemaMigrations();
    ASSERT_GE(all.size(), 5u);
    ASSERT_EQ(all[4].version, 5);
    ASSERT_TRUE(ApplyMigrations(**db, {all[0], all[1], all[2], all[3]}).ok());
    ASSERT_EQ(*(*db)->QueryInt("PRAGMA user_version"), 4);
    ASSERT_TRUE(
        (*db)
            ->Exec("INSERT INTO drives (id, name, first_seen, last_seen) "
                   "VALUES ('wwn-old', 'sdb', 5, 6);"
                   "INSERT INTO runs (id, drive_id, test, started_at, outcome) "
                   "VALUES (1, 'wwn-old', 'random', 10, 'ok');"
                   "INSERT INTO bench_points (id, run_id, seq, test, block_size, queue_depth) "
                   "VALUES (1, 1, 0, 'random', 4096, 32);"
                   "INSERT INTO measurements (point_id, run_id, drive_id, at, test, metric, "
                   "unit, block_size, queue_depth, value) "
                   "VALUES (1, 1, 'wwn-old', 10, 'random', 'iops', 'IOPS', 4096, 32, 900)")
            .ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  auto points = (*store)->RunPoints(1);
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  ASSERT_EQ(points->size(), 1u);
  EXPECT_FALSE((*points)[0].unwritten);
  EXPECT_EQ((*points)[0].jobs, 1u);
  EXPECT_EQ((*points)[0].iops, 900);
  HistoryQuery q;
  q.drive_id = "wwn-old";
  q.test = "random";
  q.metric = "iops";
  auto h = (*store)->History(q);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_FALSE((*h)[0].unwritten);
  // The upgraded file takes new unwritten points.
  auto run = (*store)->InsertRun(testing::MakeRun("wwn-old", "random", 20));
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE((*store)->AddMeasurements(*run, {RandomPoint(true)}).ok());
  EXPECT_TRUE((*(*store)->RunPoints(*run))[0].unwritten);
}

}  // namespace
}  // namespace dp
