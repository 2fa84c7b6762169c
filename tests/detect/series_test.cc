#include "detect/series.h"

#include <gtest/gtest.h>

#include <cmath>

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

TEST(JointSamplesTest, GeometricMeanOfTheRunsEveryMemberMeasured) {
  const std::vector<Sample> outer = {{1, 100, 200}, {2, 200, 250}, {3, 300, 240}};
  std::vector<Sample> middle = {{1, 100, 100}, {2, 200, 160}, {3, 300, 150}};
  const std::vector<Sample> inner = {{1, 100, 50}, {3, 300, 90}};  // run 2 not measured
  middle[2].contended = true;
  const auto joint = JointSamples({outer, middle, inner});
  ASSERT_EQ(joint.size(), 2u);
  EXPECT_EQ(joint[0].run_id, 1);
  EXPECT_EQ(joint[0].at, 100);
  EXPECT_NEAR(joint[0].value, std::cbrt(200.0 * 100 * 50), 1e-9);
  EXPECT_TRUE(joint[0].Good());
  EXPECT_EQ(joint[1].run_id, 3);
  EXPECT_TRUE(joint[1].contended);  // a member's flag is the joint run's
  EXPECT_FALSE(joint[1].Good());
}

TEST(JointSamplesTest, BadValuesDuplicatesAndNoMembers) {
  const std::vector<Sample> a = {{1, 100, 200}, {1, 100, 200}, {2, 200, 210}};
  const std::vector<Sample> b = {{1, 100, std::nan("")}, {2, 200, 0}, {2, 200, 190}};
  const auto joint = JointSamples({a, b});
  ASSERT_EQ(joint.size(), 2u);  // run 1 and 2 once each
  EXPECT_FALSE(joint[0].Good());  // NaN member
  EXPECT_FALSE(joint[1].Good());  // its first sample of run 2 is 0
  EXPECT_TRUE(JointSamples({}).empty());
  EXPECT_TRUE(JointSamples({a, {}}).empty());
  EXPECT_TRUE(HasJointSeries("zones"));
  EXPECT_FALSE(HasJointSeries("seq"));
}

}  // namespace
}  // namespace dp::detect
