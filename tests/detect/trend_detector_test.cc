#include "detect/trend_detector.h"

#include <gtest/gtest.h>

#include <random>

namespace dp::detect {
namespace {

constexpr std::int64_t kDay = 86400;

std::vector<Sample> Decay(int runs, double percent_per_month, double noise, unsigned seed,
                          std::int64_t every = 7 * kDay) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0, noise);
  std::vector<Sample> out;
  for (int i = 0; i < runs; ++i) {
    double months = i * every / (30.44 * kDay);
    double v = 200 * (1 - percent_per_month / 100 * months) * (1 + n(rng));
    out.push_back(Sample{i + 1, 1'767'225'600 + i * every, v});
  }
  return out;
}

const SeriesKey kKey{"wwn-1", "sda", "zones", "outer", "mb_per_s"};

TEST(TrendDetector, NeedsEnoughRunsAndSpan) {
  DetectionConfig cfg;
  Verdict v = EvaluateTrend(kKey, Decay(5, 5, 0.01, 1), cfg);
  EXPECT_EQ(v.kind, VerdictKind::kBaselining);
  // Ten runs one hour apart span too little time.
  EXPECT_EQ(EvaluateTrend(kKey, Decay(12, 5, 0.01, 1, 3600), cfg).kind, VerdictKind::kBaselining);
}

TEST(TrendDetector, FindsDecayAndReportsItsRate) {
  DetectionConfig cfg;
  Verdict v = EvaluateTrend(kKey, Decay(26, 3, 0.03, 7), cfg);  // six months, 3%/month
  ASSERT_EQ(v.kind, VerdictKind::kTrend) << v.summary;
  EXPECT_NEAR(*v.slope_percent_per_month, 3.0 / (1 - 0.09), 1.0);
  EXPECT_LT(*v.p_value, cfg.trend_alpha);
  EXPECT_EQ(v.condition, "trend:zones:outer:mb_per_s");
  EXPECT_NE(v.summary.find("getting slower by"), std::string::npos) << v.summary;
  EXPECT_NE(v.summary.find("%/month"), std::string::npos) << v.summary;
}

TEST(TrendDetector, FlatNoisySeriesIsClear) {
  DetectionConfig cfg;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    Verdict v = EvaluateTrend(kKey, Decay(40, 0, 0.03, seed), cfg);
    EXPECT_EQ(v.kind, VerdictKind::kClear) << seed << ": " << v.summary;
  }
}

TEST(TrendDetector, ImprovingOrTinyDriftIsNotReported) {
  DetectionConfig cfg;
  EXPECT_EQ(EvaluateTrend(kKey, Decay(26, -4, 0.01, 3), cfg).kind, VerdictKind::kClear);
  // 0.5%/month is significant with 1% noise over a year, but below the
  // 2%/month reporting floor.
  EXPECT_EQ(EvaluateTrend(kKey, Decay(52, 0.5, 0.002, 3), cfg).kind, VerdictKind::kClear);
}

TEST(TrendDetector, LatencyRisingIsTheBadDirection) {
  DetectionConfig cfg;
  SeriesKey k = kKey;
  k.metric = "access_ms";
  Verdict v = EvaluateTrend(k, Decay(26, -4, 0.01, 5), cfg);  // values grow 4%/month
  EXPECT_EQ(v.kind, VerdictKind::kTrend) << v.summary;
  EXPECT_NE(v.summary.find("rising"), std::string::npos);
}

TEST(TrendDetector, ContendedRunsLeftOut) {
  DetectionConfig cfg;
  auto h = Decay(26, 0, 0.01, 9);
  // Contended runs that look like a collapse must not create a trend.
  for (std::size_t i = 15; i + 1 < h.size(); ++i) {
    h[i].value = 50;
    h[i].contended = true;
  }
  EXPECT_EQ(EvaluateTrend(kKey, h, cfg).kind, VerdictKind::kClear);
}

}  // namespace
}  // namespace dp::detect
