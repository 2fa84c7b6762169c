#include <gtest/gtest.h>

#include <map>

#include "store/store_test_util.h"

namespace dp {
namespace {

using testing::MakeRun;
using testing::RawDb;

class MeasurementStoreTest : public testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-b", "sdb"), 1).ok());
  }

  std::int64_t AddRun(const std::string& drive, const std::string& test, std::int64_t at,
                      const std::vector<BenchPoint>& points, bool contended = false) {
    dp::Run r = MakeRun(drive, test, at);
    r.contended = contended;
    auto id = store_->InsertRun(r);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    Status s = store_->AddMeasurements(*id, points);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return *id;
  }
};

BenchPoint Zone(const std::string& zone, double mbps) {
  BenchPoint p;
  p.test = "zones";
  p.zone = zone;
  p.block_size = 1 << 20;
  p.queue_depth = 1;
  p.bytes = 1ULL << 30;
  p.seconds = 1024.0 * 1024 * 1024 / 1e6 / mbps;
  p.mb_per_s = mbps;
  p.iops = mbps;
  return p;
}

BenchPoint Random(std::uint32_t qd, double iops) {
  BenchPoint p;
  p.test = "random";
  p.block_size = 4096;
  p.queue_depth = qd;
  p.bytes = 4096ULL * 10000;
  p.seconds = 10;
  p.mb_per_s = iops * 4096 / 1e6;
  p.iops = iops;
  p.latency = LatencySummary{110, 150, 300, 900, 2500, 125};
  p.histogram = std::string("\x01\x00\x02\xff", 4);  // binary, with a NUL
  return p;
}

BenchPoint Seek(const std::string& stroke, double ms) {
  BenchPoint p;
  p.test = "seek";
  p.stroke = stroke;
  p.block_size = 512;
  p.queue_depth = 1;
  p.access_ms = ms;
  return p;
}

TEST_F(MeasurementStoreTest, PointsRoundTrip) {
  BenchPoint contended = Zone("inner", 95);
  contended.contended = true;
  contended.foreign_share = 0.2;
  contended.variant = "alone:/dev/sda";
  BenchPoint partial = Random(32, 410);
  partial.partial = true;
  std::int64_t run =
      AddRun("wwn-a", "mixed", 100,
             {Zone("outer", 190.5), contended, Random(1, 120), partial, Seek("full", 15.5)});
  auto points = store_->RunPoints(run);
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  ASSERT_EQ(points->size(), 5u);
  const BenchPoint& z = (*points)[0];
  EXPECT_EQ(z.test, "zones");
  EXPECT_EQ(z.zone, std::optional<std::string>("outer"));
  EXPECT_FALSE(z.stroke.has_value());
  EXPECT_FALSE(z.variant.has_value());
  EXPECT_EQ(z.block_size, 1u << 20);
  EXPECT_EQ(z.queue_depth, 1u);
  EXPECT_EQ(z.bytes, 1ULL << 30);
  EXPECT_DOUBLE_EQ(z.mb_per_s, 190.5);
  EXPECT_DOUBLE_EQ(z.iops, 190.5);
  EXPECT_FALSE(z.access_ms.has_value());
  EXPECT_FALSE(z.latency.has_value());
  EXPECT_TRUE(z.histogram.empty());
  EXPECT_FALSE(z.contended);

  const BenchPoint& c = (*points)[1];
  EXPECT_TRUE(c.contended);
  EXPECT_DOUBLE_EQ(c.foreign_share, 0.2);
  EXPECT_EQ(c.variant, std::optional<std::string>("alone:/dev/sda"));

  const BenchPoint& r = (*points)[2];
  ASSERT_TRUE(r.latency.has_value());
  EXPECT_DOUBLE_EQ(r.latency->p50_us, 110);
  EXPECT_DOUBLE_EQ(r.latency->p90_us, 150);
  EXPECT_DOUBLE_EQ(r.latency->p99_us, 300);
  EXPECT_DOUBLE_EQ(r.latency->p999_us, 900);
  EXPECT_DOUBLE_EQ(r.latency->max_us, 2500);
  EXPECT_DOUBLE_EQ(r.latency->mean_us, 125);
  EXPECT_EQ(r.histogram, std::string("\x01\x00\x02\xff", 4));
  EXPECT_TRUE((*points)[3].partial);

  const BenchPoint& s = (*points)[4];
  EXPECT_EQ(s.stroke, std::optional<std::string>("full"));
  EXPECT_EQ(s.access_ms, std::optional<double>(15.5));
  EXPECT_DOUBLE_EQ(s.mb_per_s, 0);

  // One row per metric, with units.
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Rows("SELECT metric, unit FROM measurements WHERE test = 'random' "
                     "AND queue_depth = 1 ORDER BY id"),
            "mb_per_s|MB/s\niops|IOPS\np50_us|us\np90_us|us\np99_us|us\np999_us|us\n"
            "max_us|us\nmean_us|us");
  EXPECT_EQ(raw.Rows("SELECT metric, unit, value FROM measurements WHERE test = 'seek'"),
            "access_ms|ms|15.5");
}

TEST_F(MeasurementStoreTest, AddingToAnUnknownRunFails) {
  Status s = store_->AddMeasurements(12345, {Zone("outer", 1)});
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
}

TEST_F(MeasurementStoreTest, ABadPointRollsBackTheWholeCall) {
  auto run = store_->InsertRun(MakeRun("wwn-a", "zones", 1));
  ASSERT_TRUE(run.ok());
  BenchPoint bad;  // no test
  Status s = store_->AddMeasurements(*run, {Zone("outer", 100), bad});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  auto points = store_->RunPoints(*run);
  ASSERT_TRUE(points.ok());
  EXPECT_TRUE(points->empty());
  // A later call appends after earlier points.
  ASSERT_TRUE(store_->AddMeasurements(*run, {Zone("outer", 100)}).ok());
  ASSERT_TRUE(store_->AddMeasurements(*run, {Zone("inner", 50)}).ok());
  points = store_->RunPoints(*run);
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 2u);
  EXPECT_EQ((*points)[1].zone, std::optional<std::string>("inner"));
}

HistoryQuery Query(const std::string& drive, const std::string& test, const std::string& metric) {
  HistoryQuery q;
  q.drive_id = drive;
  q.test = test;
  q.metric = metric;
  return q;
}

TEST_F(MeasurementStoreTest, HistoryIsChronologicalAndFiltered) {
  // Runs inserted out of time order; weekly.
  const std::int64_t week = 7 * 86400;
  std::vector<std::int64_t> run_at = {3, 1, 4, 0, 2};
  std::map<std::int64_t, std::int64_t> run_of_week;
  for (std::int64_t w : run_at) {
    run_of_week[w] = AddRun("wwn-a", "zones", 1'700'000'000 + w * week,
                            {Zone("outer", 200 - w), Zone("inner", 100 - w)}, /*contended=*/w == 2);
  }
  AddRun("wwn-b", "zones", 1'700'000'000, {Zone("outer", 999)});
  AddRun("wwn-a", "random", 1'700'000'000, {Random(1, 120), Random(32, 400)});

  HistoryQuery q = Query("wwn-a", "zones", "mb_per_s");
  q.zone = "outer";
  auto h = store_->History(q);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ASSERT_EQ(h->size(), 5u);
  for (std::int64_t w = 0; w < 5; ++w) {
    const MeasurementSample& s = (*h)[static_cast<std::size_t>(w)];
    EXPECT_EQ(s.at, 1'700'000'000 + w * week);
    EXPECT_DOUBLE_EQ(s.value, 200.0 - static_cast<double>(w));
    EXPECT_EQ(s.run_id, run_of_week[w]);
    EXPECT_EQ(s.zone, "outer");
    EXPECT_EQ(s.contended, w == 2);  // the run's flag reaches its samples
    EXPECT_FALSE(s.partial);
  }

  // Any zone: both rows of each run.
  q.zone = "";
  h = store_->History(q);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size(), 10u);

  // since and limit: the newest samples, still oldest first.
  q.zone = "inner";
  q.since = 1'700'000'000 + 1 * week;
  q.limit = 2;
  h = store_->History(q);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 2u);
  EXPECT_EQ((*h)[0].at, 1'700'000'000 + 3 * week);
  EXPECT_EQ((*h)[1].at, 1'700'000'000 + 4 * week);
  EXPECT_DOUBLE_EQ((*h)[1].value, 96);

  // Queue depth and block size filters.
  HistoryQuery r = Query("wwn-a", "random", "iops");
  h = store_->History(r);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size(), 2u);
  r.queue_depth = 32;
  h = store_->History(r);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_DOUBLE_EQ((*h)[0].value, 400);
  EXPECT_EQ((*h)[0].queue_depth, 32u);
  r.block_size = 8192;
  h = store_->History(r);
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(h->empty());

  HistoryQuery p99 = Query("wwn-a", "random", "p99_us");
  p99.queue_depth = 1;
  p99.block_size = 4096;
  h = store_->History(p99);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_DOUBLE_EQ((*h)[0].value, 300);

  // Other drive and unknown metric.
  h = store_->History(Query("wwn-b", "zones", "mb_per_s"));
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_DOUBLE_EQ((*h)[0].value, 999);
  h = store_->History(Query("wwn-a", "zones", "nonsense"));
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(h->empty());
}

TEST_F(MeasurementStoreTest, HistoryFiltersStrokeAndVariant) {
  AddRun("wwn-a", "seek", 10, {Seek("full", 16), Seek("half", 12), Seek("quarter", 9)});
  BenchPoint alone = Zone("outer", 180), together = Zone("outer", 120);
  alone.test = together.test = "parallel";
  alone.variant = "alone:/dev/sda";
  together.variant = "together";
  AddRun("wwn-a", "parallel", 20, {alone, together});

  HistoryQuery q = Query("wwn-a", "seek", "access_ms");
  q.stroke = "half";
  auto h = store_->History(q);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_DOUBLE_EQ((*h)[0].value, 12);
  EXPECT_EQ((*h)[0].stroke, "half");

  HistoryQuery v = Query("wwn-a", "parallel", "mb_per_s");
  v.variant = "together";
  h = store_->History(v);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_DOUBLE_EQ((*h)[0].value, 120);
}

TEST_F(MeasurementStoreTest, HistoryNeedsDriveTestAndMetric) {
  EXPECT_EQ(store_->History(Query("", "zones", "mb_per_s")).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->History(Query("wwn-a", "", "mb_per_s")).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->History(Query("wwn-a", "zones", "")).status().code(),
            StatusCode::kInvalidArgument);
}

// Years of weekly runs for dozens of drives must stay one range scan of the
// index alone (the page's first screen reads two series per drive).
TEST_F(MeasurementStoreTest, HistoryQueryUsesTheHistoryIndex) {
  AddRun("wwn-a", "zones", 1, {Zone("outer", 1)});
  RawDb raw(db_path_);
  raw.Exec("ANALYZE");
  // The statement of Store::History, parameters unbound.
  std::string plan = raw.Rows(
      "EXPLAIN QUERY PLAN SELECT run_id, at, value, contended, partial, zone, stroke, variant, "
      "  block_size, queue_depth, unwritten FROM measurements "
      "WHERE drive_id = ?1 AND test = ?2 AND metric = ?3 AND at >= ?4 "
      "  AND (?5 = '' OR zone = ?5) AND (?6 = '' OR stroke = ?6) "
      "  AND (?7 = '' OR variant = ?7) AND (?8 = 0 OR block_size = ?8) "
      "  AND (?9 = 0 OR queue_depth = ?9) "
      "ORDER BY at DESC, id DESC LIMIT ?10");
  EXPECT_NE(plan.find("USING COVERING INDEX measurements_history (drive_id=? AND test=? AND "
                      "metric=? AND at>?)"),
            std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;  // no sort step
}

}  // namespace
}  // namespace dp
