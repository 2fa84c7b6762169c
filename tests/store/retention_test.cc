#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "detect/series.h"
#include "runs/store_series_history.h"
#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/store_test_util.h"

namespace dp {
namespace {

using ::testing::HasSubstr;

constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kDay = 24 * kHour;
constexpr std::int64_t kT0 = 1767225600;  // 2026-01-01

std::int64_t FileBytes(const std::string& path) {
  struct stat st;
  std::int64_t total = 0;
  for (const std::string& p : {path, path + "-wal"})
    if (::stat(p.c_str(), &st) == 0) total += st.st_size;
  return total;
}

// An output of roughly smartctl -x -j's size, different for each `n`.
std::string BigRaw(int n) {
  std::string s = "{\"json_format_version\":[1,0],\"local_time\":{\"time_t\":" +
                  std::to_string(n) + "},\"ata_smart_attributes\":{\"table\":[";
  for (int i = 0; i < 200; ++i)
    s += "{\"id\":" + std::to_string(i) + ",\"name\":\"Attribute_" + std::to_string(i) +
         "\",\"value\":100,\"raw\":{\"value\":" + std::to_string(i * 7) + "}},";
  return s + "{}]}}";
}

SmartSnapshot Snapshot(std::uint64_t reallocated, int n) {
  SmartSnapshot s;
  s.protocol = "ATA";
  s.model = "WDC WD40EFRX-68N32N0";
  s.serial = "WD-sda";
  s.health_passed = true;
  s.temperature_c = 30 + n % 10;
  s.power_on_hours = static_cast<std::uint64_t>(1000 + n);
  s.reallocated_sectors = reallocated;
  for (int i = 0; i < 30; ++i) {
    SmartAttribute a;
    a.id = i;
    a.name = "Attribute_" + std::to_string(i);
    a.value = 100;
    a.raw = static_cast<std::uint64_t>(i == 9 ? 1000 + n : i);
    a.raw_string = std::to_string(*a.raw);
    s.attributes.push_back(a);
  }
  s.self_tests = {SmartSelfTest{"short", "Completed without error", true, 900}};
  s.raw_json = BigRaw(n);
  return s;
}

class RetentionTest : public testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
  }
  std::int64_t AddRun(std::int64_t at) {
    auto id = store_->InsertRun(testing::MakeRun("wwn-a", "random", at));
    EXPECT_TRUE(id.ok());
    BenchPoint p;
    p.test = "random";
    p.block_size = 4096;
    p.queue_depth = 1;
    p.iops = 100 + static_cast<double>(at);
    p.latency = LatencySummary{1, 2, 3, 4, 5, 6};
    p.histogram = "histogram-bytes";
    EXPECT_TRUE(store_->AddMeasurements(*id, {p}).ok());
    return *id;
  }
  RetentionReport Apply(const RetentionConfig& cfg, std::int64_t now) {
    auto rep = store_->ApplyRetention(cfg, now);
    EXPECT_TRUE(rep.ok()) << rep.status().ToString();
    return rep.ok() ? *rep : RetentionReport{};
  }
};

TEST_F(RetentionTest, DropsOldDetailKeepsFigures) {
  std::int64_t old_run = AddRun(100);
  std::int64_t new_run = AddRun(300);
  SmartSnapshot s;
  s.protocol = "ATA";
  s.reallocated_sectors = 1;
  s.raw_json = "{\"old\":true}";
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100, s).ok());
  s.raw_json = "{\"new\":true}";
  s.reallocated_sectors = 2;
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 300, s).ok());

  ASSERT_TRUE(store_->PruneBefore(200).ok());

  auto old_points = store_->RunPoints(old_run);
  ASSERT_TRUE(old_points.ok());
  ASSERT_EQ(old_points->size(), 1u);
  EXPECT_TRUE((*old_points)[0].histogram.empty());
  EXPECT_DOUBLE_EQ((*old_points)[0].iops, 200);  // figures stay
  ASSERT_TRUE((*old_points)[0].latency.has_value());
  auto new_points = store_->RunPoints(new_run);
  ASSERT_TRUE(new_points.ok());
  EXPECT_EQ((*new_points)[0].histogram, "histogram-bytes");

  HistoryQuery q;
  q.drive_id = "wwn-a";
  q.test = "random";
  q.metric = "iops";
  auto h = store_->History(q);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size(), 2u);

  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Rows("SELECT at, ifnull(raw_json, 'NULL'), reallocated_sectors "
                     "FROM smart_snapshots ORDER BY at"),
            "100|NULL|1\n300|{\"new\":true}|2");
  auto latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, "{\"new\":true}");
}

TEST_F(RetentionTest, SameOutputIsStoredOnceAndCompressed) {
  SmartSnapshot s = Snapshot(0, 1);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100 + i, s).ok());
  SmartSnapshot other = Snapshot(0, 2);
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 200, other).ok());
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 201, s).ok());  // back to the first bytes

  testing::RawDb raw(db_path_);
  // Stored: 100 (whole), 101 and 102 refer to 100, 200 and 201 whole (201
  // equals 100 but not its predecessor: only the previous output is compared).
  EXPECT_EQ(raw.Rows("SELECT at, typeof(raw_json), ifnull(raw_from, '-') FROM smart_snapshots "
                     "ORDER BY at"),
            "100|blob|-\n101|null|1\n102|null|1\n200|blob|-\n201|blob|-");
  EXPECT_LT(raw.Int("SELECT length(raw_json) FROM smart_snapshots WHERE at = 100"),
            static_cast<long long>(s.raw_json.size()) / 4);
  EXPECT_EQ(raw.Text("SELECT typeof(attributes) FROM smart_snapshots WHERE at = 100"), "blob");

  // Everything reads back as it went in.
  auto latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, s.raw_json);
  ASSERT_EQ((*latest)->attributes.size(), 30u);
  EXPECT_EQ((*latest)->attributes[9].raw, 1001u);
  ASSERT_EQ((*latest)->self_tests.size(), 1u);
  EXPECT_EQ((*latest)->self_tests[0].status, "Completed without error");

  // The latest refers to an older snapshot's bytes.
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 202, s).ok());
  latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, s.raw_json);
  // Retention keeps the bytes a kept snapshot refers to.
  RetentionConfig cfg;
  Apply(cfg, 202 + 30 * kDay);
  latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, s.raw_json);
}

TEST_F(RetentionTest, UncompressedStoreWritesTextAsBefore) {
  store_.reset();
  auto plain = Store::Open(db_path_, StoreOptions{.compress = false});
  ASSERT_TRUE(plain.ok());
  SmartSnapshot s = Snapshot(0, 1);
  ASSERT_TRUE((*plain)->InsertSmartSnapshot("wwn-a", 100, s).ok());
  {
    testing::RawDb raw(db_path_);
    EXPECT_EQ(raw.Rows("SELECT typeof(raw_json), typeof(attributes) FROM smart_snapshots"),
              "text|text");
  }
  plain->reset();
  // A compressing store reads the old rows, and retention compresses them.
  Reopen();
  Apply(RetentionConfig{}, 100 + kHour);
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Rows("SELECT typeof(raw_json), typeof(attributes), typeof(self_tests) "
                     "FROM smart_snapshots"),
            "blob|blob|text");  // the one-test list is shorter than is worth compressing
  auto latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, s.raw_json);
  EXPECT_EQ((*latest)->attributes.size(), 30u);
}

// Snapshots every 4 hours for 200 days: the last 7 days whole, then one a day to
// day 90, then one a week, with every change of a counter kept and each
// drive's latest output.
TEST_F(RetentionTest, SmartSnapshotsThinnedByAgeKeepingEveryChange) {
  const int hours = 200 * 24;
  const int change_at = 20 * 24 + 8;  // reallocated 0 -> 3, an old snapshot
  for (int h = 0; h < hours; h += 4) {
    SmartSnapshot s = Snapshot(h >= change_at ? 3 : 0, h);
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", kT0 + h * kHour, s).ok());
  }
  const std::int64_t now = kT0 + hours * kHour;
  RetentionReport rep = Apply(RetentionConfig{}, now);
  EXPECT_GT(rep.snapshots_thinned, 0);

  auto all = store_->SmartHistory("wwn-a", 0, 0);
  ASSERT_TRUE(all.ok());
  int recent = 0, daily = 0, weekly = 0;
  bool change_kept = false;
  for (const auto& [at, snap] : *all) {
    if (at >= now - 7 * kDay) ++recent;
    else if (at >= now - 90 * kDay) ++daily;
    else ++weekly;
    if (at == kT0 + change_at * kHour) change_kept = snap.reallocated_sectors == 3u;
  }
  EXPECT_EQ(recent, 7 * 6);
  EXPECT_EQ(daily, 83);  // one per day between the cut-offs
  EXPECT_TRUE(change_kept);
  // 110 days before daily_cutoff: 16 or 17 weeks touched, plus the change
  // and the last snapshot before it.
  EXPECT_GE(weekly, 16);
  EXPECT_LE(weekly, 19);
  // Only the full window keeps smartctl's output.
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM smart_snapshots WHERE raw_json IS NOT NULL AND at < " +
                    std::to_string(now - 7 * kDay)),
            0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM smart_snapshots WHERE raw_json IS NOT NULL"), 7 * 6);

  // Applying it again changes nothing.
  RetentionReport again = Apply(RetentionConfig{}, now);
  EXPECT_EQ(again.snapshots_thinned, 0);
  EXPECT_EQ(again.raw_outputs_dropped, 0);
  auto after = store_->SmartHistory("wwn-a", 0, 0);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->size(), all->size());
}

TEST_F(RetentionTest, LatestSnapshotOfAVanishedDriveKeepsItsOutput) {
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", kT0, Snapshot(0, 1)).ok());
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", kT0 + kHour, Snapshot(0, 2)).ok());
  Apply(RetentionConfig{}, kT0 + 400 * kDay);
  auto latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, BigRaw(2));
}

// Three years of weekly read runs and a re-baseline after the first: every
// judged series keeps every sample, so what detection reads (the samples
// since the re-baseline plus the newest 500) is the same before and after.
TEST_F(RetentionTest, EveryRunKeepsTheFiguresDetectionJudges) {
  std::vector<BenchPoint> points;
  {
    BenchPoint seq;
    seq.test = "seq";
    seq.zone = "outer";
    seq.block_size = 1 << 20;
    seq.queue_depth = 8;
    seq.mb_per_s = 200;
    seq.iops = 200;
    seq.latency = LatencySummary{10, 20, 30, 40, 50, 15};
    seq.histogram = "h1 n=1";
    BenchPoint rnd = seq;
    rnd.test = "random";
    rnd.zone.reset();
    rnd.block_size = 4096;
    rnd.queue_depth = 1;
    rnd.mb_per_s = 0.5;
    rnd.iops = 120;
    BenchPoint seek = rnd;
    seek.test = "seek";
    seek.stroke = "full";
    seek.iops = 60;
    seek.access_ms = 16.5;
    points = {seq, rnd, seek};
  }
  const int weeks = 156;
  for (int w = 0; w < weeks; ++w) {
    const std::int64_t at = kT0 + w * 7 * kDay;
    for (BenchPoint p : points) {
      auto id = store_->InsertRun(testing::MakeRun("wwn-a", p.test, at));
      ASSERT_TRUE(id.ok());
      p.mb_per_s *= 1 + 0.001 * w;
      p.iops *= 1 + 0.001 * w;
      ASSERT_TRUE(store_->AddMeasurements(*id, {p}).ok());
    }
  }
  RebaselineMark mark;
  mark.drive_id = "wwn-a";
  mark.at = kT0 + 52 * 7 * kDay;
  mark.reason = "new firmware";
  ASSERT_TRUE(store_->InsertRebaseline(mark).ok());

  // Every series detection forms from these points, as it queries them.
  std::vector<HistoryQuery> queries;
  for (const BenchPoint& p : points)
    for (const auto& spec : detect::SeriesOf("wwn-a", "sda", p)) {
      HistoryQuery q = SeriesQuery("wwn-a", spec);
      q.limit = 0;
      queries.push_back(q);
      q.limit = 500;
      queries.push_back(q);
      q.since = mark.at;
      q.oldest = true;
      q.limit = 200;
      queries.push_back(q);
    }
  ASSERT_GE(queries.size(), 12u);  // seq mb_per_s, random iops + p99_us, seek access_ms
  auto snapshot = [&] {
    std::vector<std::vector<std::pair<std::int64_t, double>>> out;
    for (const auto& q : queries) {
      auto h = store_->History(q);
      EXPECT_TRUE(h.ok());
      std::vector<std::pair<std::int64_t, double>> v;
      for (const auto& s : *h) v.emplace_back(s.run_id, s.value);
      out.push_back(v);
    }
    return out;
  };
  const auto before = snapshot();
  EXPECT_EQ(before[0].size(), static_cast<std::size_t>(weeks));

  const std::int64_t now = kT0 + weeks * 7 * kDay;
  RetentionReport rep = Apply(RetentionConfig{}, now);
  EXPECT_GT(rep.measurements_dropped, 0);
  EXPECT_GT(rep.histograms_dropped, 0);
  EXPECT_EQ(snapshot(), before);

  // The secondary figures stay for the last year only; histograms for 90 days.
  HistoryQuery p50;
  p50.drive_id = "wwn-a";
  p50.test = "seq";
  p50.metric = "p50_us";
  p50.limit = 0;
  auto h = store_->History(p50);
  ASSERT_TRUE(h.ok());
  ASSERT_FALSE(h->empty());
  EXPECT_GE(h->front().at, now - 365 * kDay);
  EXPECT_LE(h->size(), 53u);
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM latency_histograms h JOIN bench_points p "
                    "ON p.id = h.point_id JOIN runs r ON r.id = p.run_id WHERE r.started_at < " +
                    std::to_string(now - 90 * kDay)),
            0);
  EXPECT_GT(raw.Int("SELECT count(*) FROM latency_histograms"), 0);
}

TEST_F(RetentionTest, OldSuccessfulSmartRunsGoFailedOnesStay) {
  for (int d = 0; d < 200; ++d) {
    dp::Run r = testing::MakeRun("wwn-a", "smart", kT0 + d * kDay);
    if (d == 10) {
      r.outcome = RunOutcome::kFailed;
      r.reason = "smartctl: timed out";
    }
    ASSERT_TRUE(store_->InsertRun(r).ok());
  }
  RetentionReport rep = Apply(RetentionConfig{}, kT0 + 200 * kDay);
  EXPECT_EQ(rep.smart_runs_deleted, 109);  // days 0..109 but the failed one
  RunFilter f;
  f.test = "smart";
  f.limit = 0;
  auto runs = store_->ListRuns(f);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 91u);
  EXPECT_EQ(runs->back().reason, "smartctl: timed out");
}

TEST_F(RetentionTest, TheFileShrinks) {
  for (int h = 0; h < 60 * 24; h += 4)
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", kT0 + h * kHour, Snapshot(0, h)).ok());
  ASSERT_TRUE(store_->QuickCheck().ok());
  store_.reset();  // checkpoints the WAL into the file
  const std::int64_t before = FileBytes(db_path_);
  Reopen();
  RetentionReport rep = Apply(RetentionConfig{}, kT0 + 60 * kDay);
  EXPECT_EQ(rep.bytes_after, FileBytes(db_path_));
  store_.reset();
  const std::int64_t after = FileBytes(db_path_);
  EXPECT_LT(after, before / 2) << before << " -> " << after;
  Reopen();
  EXPECT_EQ(*store_->QuickCheck(), "ok");
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("PRAGMA auto_vacuum"), 2);  // incremental
  EXPECT_EQ(raw.Int("PRAGMA freelist_count"), 0);
}

TEST_F(RetentionTest, AnOlderFileIsConvertedToIncrementalVacuumOnce) {
  for (int h = 0; h < 30 * 24; h += 4)
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", kT0 + h * kHour, Snapshot(0, h)).ok());
  store_.reset();
  {
    testing::RawDb raw(db_path_);
    raw.Exec("PRAGMA auto_vacuum = NONE");
    raw.Exec("VACUUM");
    ASSERT_EQ(raw.Int("PRAGMA auto_vacuum"), 0);
  }
  const std::int64_t before = FileBytes(db_path_);
  Reopen();
  Apply(RetentionConfig{}, kT0 + 30 * kDay);
  store_.reset();
  EXPECT_LT(FileBytes(db_path_), before / 2);
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("PRAGMA auto_vacuum"), 2);
}

TEST_F(RetentionTest, DisabledRemovesNothing) {
  for (int h = 0; h < 30 * 24; h += 4)
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", kT0 + h * kHour, Snapshot(0, h)).ok());
  AddRun(kT0);
  RetentionConfig cfg;
  cfg.enabled = false;
  RetentionReport rep = Apply(cfg, kT0 + 1000 * kDay);
  EXPECT_EQ(rep.snapshots_thinned + rep.raw_outputs_dropped + rep.histograms_dropped +
                rep.measurements_dropped,
            0);
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM smart_snapshots WHERE raw_json IS NOT NULL"),
            30 * 6);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM latency_histograms"), 1);
}

// A version 3 database (before compression) with a snapshot in it.
TEST(RetentionMigrationTest, VersionThreeSnapshotsReadAndShrinkAfterTheUpgrade) {
  testing::TempDir dir;
  const std::string path = dir.Path("diskpulse.db");
  const std::string raw_json = BigRaw(7);
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok());
    std::vector<Migration> v3(SchemaMigrations().begin(), SchemaMigrations().begin() + 3);
    ASSERT_EQ(v3.back().version, 3);
    ASSERT_TRUE(ApplyMigrations(**db, v3).ok());
    ASSERT_TRUE((*db)->Exec("INSERT INTO drives (id, name, first_seen, last_seen) "
                            "VALUES ('wwn-old', 'sdb', 5, 6)")
                    .ok());
    auto st = (*db)->Prepare(
        "INSERT INTO smart_snapshots (drive_id, at, protocol, reallocated_sectors, attributes, "
        "raw_json) VALUES ('wwn-old', 10, 'ATA', 4, '[{\"id\":5,\"name\":\"Reallocated\"}]', ?1)");
    ASSERT_TRUE(st.ok());
    st->Bind(1, raw_json);
    ASSERT_TRUE(st->Run().ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  auto latest = (*store)->LatestSmart("wwn-old");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, raw_json);
  EXPECT_EQ((*latest)->reallocated_sectors, 4u);
  ASSERT_EQ((*latest)->attributes.size(), 1u);
  auto rep = (*store)->ApplyRetention(RetentionConfig{}, 20);
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  EXPECT_EQ(rep->raw_outputs_compressed, 1);
  latest = (*store)->LatestSmart("wwn-old");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, raw_json);
  // A new snapshot with the same output refers to the converted one.
  SmartSnapshot s = **latest;
  ASSERT_TRUE((*store)->InsertSmartSnapshot("wwn-old", 30, s).ok());
  testing::RawDb raw(path);
  EXPECT_EQ(raw.Rows("SELECT at, typeof(raw_json), ifnull(raw_from, '-') FROM smart_snapshots "
                     "ORDER BY at"),
            "10|blob|-\n30|null|1");
}

}  // namespace
}  // namespace dp
