#include "detect/series.h"

#include <gtest/gtest.h>

namespace dp::detect {
namespace {

TEST(Series, NamesAndMetricsPerTest) {
  BenchPoint seq;
  seq.test = "seq";
  seq.block_size = 1 << 20;
  seq.queue_depth = 8;
  EXPECT_EQ(SeriesName(seq), "qd8-1m");
  auto s = SeriesOf("wwn-1", "sda", seq);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].key.metric, "mb_per_s");
  EXPECT_EQ(s[0].block_size, 1u << 20);
  EXPECT_EQ(s[0].queue_depth, 8u);

  BenchPoint rnd;
  rnd.test = "random";
  rnd.block_size = 4096;
  rnd.queue_depth = 1;
  rnd.latency = LatencySummary{};
  s = SeriesOf("wwn-1", "sda", rnd);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].key.series, "qd1-4k");
  EXPECT_EQ(s[0].key.metric, "iops");
  EXPECT_EQ(s[1].key.metric, "p99_us");

  BenchPoint zone;
  zone.test = "zones";
  zone.zone = "inner";
  zone.block_size = 1 << 20;
  zone.queue_depth = 1;
  EXPECT_EQ(SeriesName(zone), "inner");
  EXPECT_EQ(SeriesOf("d", "", zone)[0].zone, "inner");

  BenchPoint seek;
  seek.test = "seek";
  seek.stroke = "full";
  EXPECT_TRUE(SeriesOf("d", "", seek).empty());  // no access time measured
  seek.access_ms = 12.5;
  s = SeriesOf("d", "", seek);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].key.series, "full");
  EXPECT_EQ(s[0].key.metric, "access_ms");
}

TEST(Series, EvaluateSeriesGivesChangeAndTrend) {
  std::vector<Sample> h;
  for (int i = 0; i < 14; ++i)
    h.push_back(Sample{i + 1, 1'767'225'600 + i * 7 * 86400, 200.0 + (i % 3)});
  auto vs = EvaluateSeries(SeriesKey{"d", "", "seq", "qd8-1m", "mb_per_s"}, h, DetectionConfig{});
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[0].condition, "slowdown:seq:qd8-1m:mb_per_s");
  EXPECT_EQ(vs[0].kind, VerdictKind::kClear);
  EXPECT_EQ(vs[1].condition, "trend:seq:qd8-1m:mb_per_s");
  EXPECT_EQ(vs[1].kind, VerdictKind::kClear);
}

}  // namespace
}  // namespace dp::detect
