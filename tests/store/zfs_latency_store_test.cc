// ZFS latency samples in a real SQLite store: round trip, the newest
// samplings of a vdev, a drive's samples, retention, and a database of the
// schema before them (version 7) migrating with its data; sit_out and the
// disk wait histograms (schema 10), a version-9 database migrating to them,
// and each pool's newest sampling.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/zfs_histogram_codec.h"
#include "store_test_util.h"

namespace dp {
namespace {

using testing::RawDb;
using testing::StoreFixture;

ZfsLatencySample Sample(std::int64_t at, const std::string& member, const std::string& drive,
                        std::optional<double> disk_read) {
  ZfsLatencySample s;
  s.at = at;
  s.pool = "tank";
  s.vdev = "raidz2-0";
  s.member = member;
  s.drive_id = drive;
  s.read_ops = 40;
  s.write_ops = 15.5;
  s.disk_wait_read = disk_read;
  s.disk_wait_write = 0.0092;
  s.total_wait_read = disk_read ? std::optional<double>(*disk_read + 0.003) : std::nullopt;
  s.slow_ios = 3;
  return s;
}

using ZfsLatencyStoreTest = StoreFixture;

TEST_F(ZfsLatencyStoreTest, RoundTripKeepsUnknownsUnknown) {
  ZfsLatencySample a = Sample(1000, "/dev/disk/by-id/ata-A-part1", "wwn-a", 0.0081);
  ZfsLatencySample b = Sample(1000, "/dev/disk/by-id/ata-B-part1", "", std::nullopt);
  b.slow_ios.reset();
  b.read_ops.reset();
  ASSERT_TRUE(store_->AddZfsLatencySamples({a, b}).ok());
  Reopen();
  auto got = store_->ZfsLatencyOfVdev("tank", "raidz2-0", 3);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 2u);
  const ZfsLatencySample& ra = (*got)[0];
  EXPECT_EQ(ra.member, a.member);
  EXPECT_EQ(ra.drive_id, "wwn-a");
  EXPECT_DOUBLE_EQ(*ra.disk_wait_read, 0.0081);
  EXPECT_DOUBLE_EQ(*ra.write_ops, 15.5);
  EXPECT_DOUBLE_EQ(*ra.total_wait_read, 0.0111);
  EXPECT_FALSE(ra.total_wait_write);
  EXPECT_EQ(ra.slow_ios, 3u);
  const ZfsLatencySample& rb = (*got)[1];
  EXPECT_EQ(rb.drive_id, "");
  EXPECT_FALSE(rb.disk_wait_read);
  EXPECT_FALSE(rb.read_ops);
  EXPECT_FALSE(rb.slow_ios);
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM zfs_latency_samples WHERE drive_id IS NULL"), 1);
}

TEST_F(ZfsLatencyStoreTest, VdevGivesItsNewestSamplingsOldestFirst) {
  std::vector<ZfsLatencySample> all;
  for (int t = 1; t <= 5; ++t) {
    all.push_back(Sample(t * 3600, "m1", "wwn-1", 0.001 * t));
    all.push_back(Sample(t * 3600, "m2", "wwn-2", 0.002 * t));
  }
  ZfsLatencySample other = Sample(5 * 3600, "m9", "wwn-9", 0.5);
  other.vdev = "raidz2-1";
  all.push_back(other);
  ASSERT_TRUE(store_->AddZfsLatencySamples(all).ok());
  auto got = store_->ZfsLatencyOfVdev("tank", "raidz2-0", 3);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 6u);
  EXPECT_EQ((*got)[0].at, 3 * 3600);
  EXPECT_EQ((*got)[0].member, "m1");
  EXPECT_EQ((*got)[5].at, 5 * 3600);
  EXPECT_EQ((*got)[5].member, "m2");
  EXPECT_EQ(store_->ZfsLatencyOfVdev("tank", "raidz2-0", 0)->size(), 10u);
  EXPECT_TRUE(store_->ZfsLatencyOfVdev("tank", "mirror-7", 3)->empty());
  auto drive = store_->ZfsLatencyOfDrive("wwn-2", 2);
  ASSERT_TRUE(drive.ok());
  ASSERT_EQ(drive->size(), 2u);
  EXPECT_EQ((*drive)[0].at, 5 * 3600);  // newest first
  EXPECT_DOUBLE_EQ(*(*drive)[0].disk_wait_read, 0.010);
  EXPECT_EQ(store_->ZfsLatencyOfDrive("wwn-2", 0)->size(), 5u);
}

TEST_F(ZfsLatencyStoreTest, RetentionRemovesSamplesPastHistogramDays) {
  const std::int64_t day = 86400, now = 400 * day;
  ASSERT_TRUE(store_
                  ->AddZfsLatencySamples({Sample(now - 100 * day, "m1", "wwn-1", 0.01),
                                          Sample(now - 89 * day, "m1", "wwn-1", 0.02)})
                  .ok());
  RetentionConfig cfg;  // histogram_days 90
  auto rep = store_->ApplyRetention(cfg, now);
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  EXPECT_EQ(rep->zfs_samples_dropped, 1);
  EXPECT_NE(rep->Summary().find("1 ZFS latency samples removed"), std::string::npos);
  auto left = store_->ZfsLatencyOfDrive("wwn-1", 0);
  ASSERT_EQ(left->size(), 1u);
  EXPECT_EQ((*left)[0].at, now - 89 * day);
  cfg.enabled = false;
  ASSERT_TRUE(store_->AddZfsLatencySamples({Sample(1, "m1", "wwn-1", 0.01)}).ok());
  EXPECT_EQ(store_->ApplyRetention(cfg, now)->zfs_samples_dropped, 0);
  EXPECT_EQ(store_->ZfsLatencyOfDrive("wwn-1", 0)->size(), 2u);
}

TEST(ZfsLatencyMigrationTest, VersionSevenDatabaseMigratesWithItsData) {
  testing::TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok());
    std::vector<Migration> upto7(SchemaMigrations().begin(), SchemaMigrations().begin() + 7);
    ASSERT_EQ(upto7.back().version, 7);
    ASSERT_TRUE(ApplyMigrations(**db, upto7).ok());
    ASSERT_TRUE((*db)->Exec("INSERT INTO drives (id, name, first_seen, last_seen) "
                            "VALUES ('wwn-old', 'sdb', 5, 6)")
                    .ok());
    EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM sqlite_schema WHERE name = "
                               "'zfs_latency_samples'"),
              0);
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  EXPECT_TRUE((*(*store)->GetDrive("wwn-old")).has_value());
  ASSERT_TRUE((*store)->AddZfsLatencySamples({Sample(9, "m1", "wwn-old", 0.004)}).ok());
  EXPECT_EQ((*store)->ZfsLatencyOfDrive("wwn-old", 0)->size(), 1u);
}

TEST_F(ZfsLatencyStoreTest, SitOutAndHistogramRoundTrip) {
  ZfsLatencySample on = Sample(100, "m1", "wwn-1", 0.04);
  on.sit_out = true;
  ZfsWaitHistogram h;
  h.seconds = 3600;
  h.read.assign(37, 0);
  h.read[19] = 120;
  h.read[25] = 7;
  h.write.assign(37, 0);
  h.write[18] = 33;
  on.disk_wait_histogram = h;
  ZfsLatencySample off = Sample(100, "m2", "wwn-2", 0.008);
  off.sit_out = false;
  ZfsLatencySample unknown = Sample(100, "m3", "wwn-3", 0.008);
  ASSERT_TRUE(store_->AddZfsLatencySamples({on, off, unknown}).ok());
  Reopen();
  auto got = store_->ZfsLatencyOfVdev("tank", "raidz2-0", 1);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0].sit_out, std::optional<bool>(true));
  ASSERT_TRUE((*got)[0].disk_wait_histogram);
  EXPECT_EQ((*got)[0].disk_wait_histogram->seconds, 3600);
  EXPECT_EQ((*got)[0].disk_wait_histogram->read, h.read);
  EXPECT_EQ((*got)[0].disk_wait_histogram->write, h.write);
  EXPECT_EQ((*got)[1].sit_out, std::optional<bool>(false));
  EXPECT_FALSE((*got)[1].disk_wait_histogram);
  EXPECT_FALSE((*got)[2].sit_out);
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM zfs_latency_samples WHERE sit_out IS NULL"), 1);
  EXPECT_LE(raw.Int("SELECT max(length(disk_wait_histogram)) FROM zfs_latency_samples"), 16);
}

TEST_F(ZfsLatencyStoreTest, LatestSamplingOfEachPool) {
  ZfsLatencySample old = Sample(100, "m1", "wwn-1", 0.01);
  old.slow_ios = 1;
  ZfsLatencySample now = Sample(200, "m1", "wwn-1", 0.01);
  now.slow_ios = 4;
  ZfsLatencySample other = Sample(150, "d1", "wwn-9", 0.01);
  other.pool = "backup";
  other.vdev = "d1";
  ZfsLatencySample gone = Sample(10, "x1", "wwn-8", 0.01);
  gone.pool = "archive";
  ASSERT_TRUE(store_->AddZfsLatencySamples({old, now, other, gone}).ok());
  auto got = store_->ZfsLatestSamplings(50);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 2u);  // archive's only sampling is before `since`
  EXPECT_EQ((*got)[0].pool, "backup");
  EXPECT_EQ((*got)[1].pool, "tank");
  EXPECT_EQ((*got)[1].at, 200);
  EXPECT_EQ((*got)[1].slow_ios, 4u);
}

TEST(ZfsLatencyMigrationTest, VersionNineSamplesGetUnknownSitOutAndHistogram) {
  testing::TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok());
    std::vector<Migration> upto9;
    for (const Migration& m : SchemaMigrations()) {
      if (m.name == std::string("ZFS sit_out and disk wait histograms")) break;
      upto9.push_back(m);
    }
    ASSERT_EQ(upto9.back().version, 9);
    ASSERT_TRUE(ApplyMigrations(**db, upto9).ok());
    ASSERT_TRUE((*db)
                    ->Exec("INSERT INTO zfs_latency_samples (at, pool, vdev, member, drive_id, "
                           "disk_wait_read, slow_ios) VALUES (5, 'tank', 'raidz2-0', 'm1', "
                           "'wwn-1', 0.008, 2)")
                    .ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  auto got = (*store)->ZfsLatencyOfDrive("wwn-1", 0);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 1u);
  EXPECT_DOUBLE_EQ(*(*got)[0].disk_wait_read, 0.008);
  EXPECT_EQ((*got)[0].slow_ios, 2u);
  EXPECT_FALSE((*got)[0].sit_out);
  EXPECT_FALSE((*got)[0].disk_wait_histogram);
}

}  // namespace
}  // namespace dp
