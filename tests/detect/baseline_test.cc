#include "detect/baseline.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dp::detect {
namespace {

std::vector<Sample> Series(const std::vector<double>& values) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         1'767'225'600 + static_cast<std::int64_t>(i) * 86400, values[i]});
  return out;
}

TEST(Baseline, NotReadyUntilBaselineRuns) {
  DetectionConfig cfg;
  auto h = Series({200, 201, 199, 200});
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  EXPECT_FALSE(b.ready);
  EXPECT_EQ(b.runs, 4);
  EXPECT_EQ(b.wanted, 5);
  h.push_back(Sample{5, h.back().at + 1, 200});
  EXPECT_TRUE(ComputeBaseline(h, h.size(), cfg, 0).ready);
  // end: only the samples before it count.
  EXPECT_FALSE(ComputeBaseline(h, 4, cfg, 0).ready);
}

// The unscreened first runs: a wild one is kept out of the centre and scale
// (skipped mean), though it counts as a baseline run.
TEST(Baseline, WildFirstRunIsSkipped) {
  DetectionConfig cfg;
  auto h = Series({200, 202, 150, 198, 200});
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  ASSERT_TRUE(b.ready);
  EXPECT_EQ(b.runs, 5);
  EXPECT_EQ(b.kept, 4);
  EXPECT_DOUBLE_EQ(b.median, 200);
  EXPECT_DOUBLE_EQ(b.center, 200);
  EXPECT_NEAR(b.sd, std::sqrt(8.0 / 3), 1e-12);
  // sigma = sd / c4(4), c4(4) ~ 1 - 1/16 - 7/512
  EXPECT_NEAR(b.sigma, std::sqrt(8.0 / 3) / (1 - 1.0 / 16 - 7.0 / 512), 1e-12);
}

// Later runs enter only within the screen; contended/partial/failed never.
TEST(Baseline, GrowsWithScreenedGoodRunsUpToTheCap) {
  DetectionConfig cfg;
  cfg.baseline_max_runs = 8;
  auto h = Series({200, 204, 198, 201, 199, 150, 203, 260, 197});
  h[6].contended = true;
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  // 150 and 260 are far beyond the screen; 203 was contended.
  EXPECT_EQ(b.runs, 6);
  EXPECT_EQ(b.run_ids, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 9}));
  for (int i = 0; i < 5; ++i) h.push_back(Sample{20 + i, h.back().at + 1, 200});
  b = ComputeBaseline(h, h.size(), cfg, 0);
  EXPECT_EQ(b.runs, 8);
  EXPECT_EQ(b.run_ids.back(), 21);
  EXPECT_EQ(b.to_at, h[10].at);
}

// The bands are prediction bands: the same sigma gives a wider band on fewer
// runs (sqrt(1/m + 1/n)); the pair band is for a mean of two runs.
TEST(Baseline, BandsWidenForSmallBaselines) {
  DetectionConfig cfg;
  cfg.min_band_percent = 0;
  cfg.confirm_min_percent = 0;
  Baseline b;
  b.center = b.median = 100;
  b.sigma = 2;
  b.runs = b.kept = 5;
  Band small = BandOf(b, cfg);
  EXPECT_NEAR(100 - small.low, cfg.band_sigmas * 2 * std::sqrt(1 + 1.0 / 5), 1e-12);
  EXPECT_NEAR(small.high - 100, 100 - small.low, 1e-12);
  Band pair = PairBandOf(b, cfg);
  EXPECT_NEAR(100 - pair.low, cfg.confirm_sigmas * 2 * std::sqrt(0.5 + 1.0 / 5), 1e-12);
  b.runs = b.kept = 100;
  Band large = BandOf(b, cfg);
  EXPECT_GT(large.low, small.low);
  EXPECT_NEAR(100 - large.low, cfg.band_sigmas * 2 * std::sqrt(1.01), 1e-12);
}

TEST(Baseline, PercentFloorsHoldForATightBaseline) {
  DetectionConfig cfg;
  Baseline b;
  b.center = b.median = 200;
  b.sigma = 0.1;
  b.runs = b.kept = 30;
  EXPECT_NEAR(BandOf(b, cfg).low, 200 * (1 - cfg.min_band_percent / 100), 1e-9);
  EXPECT_NEAR(PairBandOf(b, cfg).low, 200 * (1 - cfg.confirm_min_percent / 100), 1e-9);
}

TEST(Baseline, OutsideWorseFollowsDirection) {
  Band band{90, 110};
  EXPECT_TRUE(OutsideWorse(89, band, Direction::kHigherIsBetter));
  EXPECT_FALSE(OutsideWorse(90, band, Direction::kHigherIsBetter));
  EXPECT_FALSE(OutsideWorse(200, band, Direction::kHigherIsBetter));
  EXPECT_TRUE(OutsideWorse(111, band, Direction::kLowerIsBetter));
  EXPECT_FALSE(OutsideWorse(10, band, Direction::kLowerIsBetter));
  EXPECT_DOUBLE_EQ(WorsePercent(85, 100, Direction::kHigherIsBetter), 15);
  EXPECT_DOUBLE_EQ(WorsePercent(150, 100, Direction::kLowerIsBetter), 50);
}

}  // namespace
}  // namespace dp::detect
