#include "detect/baseline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "detect/student_t.h"

namespace dp::detect {
namespace {

std::vector<Sample> Series(const std::vector<double>& values) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         1'767'225'600 + static_cast<std::int64_t>(i) * 86400, values[i]});
  return out;
}

double LogSd(const std::vector<double>& v) {
  double m = 0, ss = 0;
  for (double x : v) m += std::log(x);
  m /= v.size();
  for (double x : v) ss += (std::log(x) - m) * (std::log(x) - m);
  return std::sqrt(ss / (v.size() - 1));
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

// Centre and spread are those of the logs: the geometric mean, and the sd of
// the logs (the CV) made unbiased by c4(n).
TEST(Baseline, CentreAndSpreadAreOnTheLogScale) {
  DetectionConfig cfg;
  const std::vector<double> v = {200, 204, 198, 201, 199};
  Baseline b = ComputeBaseline(Series(v), v.size(), cfg, 0);
  ASSERT_TRUE(b.ready);
  double logsum = 0;
  for (double x : v) logsum += std::log(x);
  EXPECT_NEAR(b.log_center, logsum / 5, 1e-12);
  EXPECT_NEAR(b.center, std::exp(logsum / 5), 1e-9);
  EXPECT_NEAR(b.log_sigma, LogSd(v) / (1 - 1.0 / 20 - 7.0 / 800), 1e-12);
  EXPECT_DOUBLE_EQ(b.median, 200);
  EXPECT_DOUBLE_EQ(b.mad, 1);
}

// A run recognised as unseen interference is judged like any run, but no
// baseline takes it in: not through a closed segment, not among the first
// runs (the next good run takes its place there).
TEST(Baseline, AnInterferedRunIsJudgedButNeverTakenIn) {
  DetectionConfig cfg;
  auto h = Series({200, 204, 197, 202, 199, 201, 198, 203, 200, 191, 201, 200, 199, 202});
  const Baseline plain = ComputeBaseline(h, h.size(), cfg, 0);
  auto holds = [](const Baseline& b, std::int64_t id) {
    return std::find(b.run_ids.begin(), b.run_ids.end(), id) != b.run_ids.end();
  };
  ASSERT_TRUE(holds(plain, 10));  // unflagged, the 4.5% low run is taken in
  h[9].interfered = true;
  const Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  EXPECT_FALSE(holds(b, 10));
  EXPECT_EQ(b.runs, plain.runs - 1);
  EXPECT_LT(b.log_sigma, plain.log_sigma);
  const Replay r = ReplaySeries(h, 10, cfg, 0, Direction::kHigherIsBetter);
  ASSERT_TRUE(r.last_judged);
  EXPECT_EQ(r.last.index, 9u);
  EXPECT_NEAR(r.last.deviation, std::log(b.center / 191), 0.01);

  auto first = Series({200, 196, 202, 198, 201, 199});
  EXPECT_EQ(ComputeBaseline(first, first.size(), cfg, 0).run_ids,
            (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}));
  first[1].interfered = true;
  EXPECT_EQ(ComputeBaseline(first, first.size(), cfg, 0).run_ids,
            (std::vector<std::int64_t>{1, 3, 4, 5, 6}));
}

// A wild run among the unscreened first runs is dropped from the baseline,
// and the next good run takes its place: the baseline still has its five.
TEST(Baseline, WildFirstRunIsDroppedAndReplaced) {
  DetectionConfig cfg;
  auto h = Series({200, 202, 150, 198, 200});
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  EXPECT_FALSE(b.ready);
  h.push_back(Sample{6, h.back().at + 1, 201});
  b = ComputeBaseline(h, h.size(), cfg, 0);
  ASSERT_TRUE(b.ready);
  EXPECT_EQ(b.runs, 5);
  EXPECT_EQ(b.run_ids, (std::vector<std::int64_t>{1, 2, 4, 5, 6}));
  EXPECT_NEAR(b.center, 200, 0.5);
}

// Among very tight first runs, one 0.6% off is far out in sigmas but no
// gross outlier: it stays, and no later run takes its place.
TEST(Baseline, TightFirstRunsKeepAnOrdinaryRun) {
  DetectionConfig cfg;
  auto h = Series({52.69, 52.70, 52.39, 52.68, 52.70});
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  ASSERT_TRUE(b.ready);
  EXPECT_EQ(b.run_ids, (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
}

// A first run is gross only when it is further from the others than the pair
// floor (10%): interference is 10-60% worse, while a run 6% off four that
// agreed is ordinary at 3% noise. Dropping it (a field-model series at 3%
// noise) left a baseline of CV 1%, and two ordinary runs later made a pair.
// 12% off is still dropped and replaced.
TEST(Baseline, FirstRunOffByLessThanThePairFloorIsKept) {
  DetectionConfig cfg;
  auto h = Series({204.0, 192.3, 206.2, 205.3, 204.4});
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  ASSERT_TRUE(b.ready);
  EXPECT_EQ(b.run_ids, (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  EXPECT_GT(b.log_sigma, 0.02);

  h = Series({204.0, 180.0, 206.2, 205.3, 204.4, 203.0});
  b = ComputeBaseline(h, h.size(), cfg, 0);
  ASSERT_TRUE(b.ready);
  EXPECT_EQ(b.run_ids, (std::vector<std::int64_t>{1, 3, 4, 5, 6}));
}

// On a noisy series the first runs' spread is the series' own: an ordinary
// run is not taken for an outlier because three others happened to agree
// (a MAD of five runs would have dropped 130 and 75 here and started the
// baseline at a third of its real spread).
TEST(Baseline, NoisyFirstRunsAreKept) {
  DetectionConfig cfg;
  auto h = Series({100, 101, 130, 99, 75});
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  ASSERT_TRUE(b.ready);
  EXPECT_EQ(b.runs, 5);
  EXPECT_GT(b.log_sigma, 0.15);
}

// A start that happened to be tight and off-centre is not kept for ever:
// runs that waited out the admission lag in a segment that never signalled
// join the baseline, which widens to the series' real spread.
TEST(Baseline, TightStartWidensThroughTheAdmissionLag) {
  DetectionConfig cfg;
  std::vector<double> v = {210, 211, 210, 211, 210};
  // Then the series' real life: 10% noise around 200, worse than the start
  // by 5% on average but never an alert-sized change.
  const double wobble[] = {0.9, 1.1, 0.95, 1.05, 0.85, 1.0, 1.12, 0.92, 1.03, 0.97};
  for (int i = 0; i < 40; ++i) v.push_back(200 * wobble[i % 10]);
  auto h = Series(v);
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  EXPECT_GT(b.runs, 30);
  EXPECT_GT(b.log_sigma, 0.05);
  EXPECT_LT(b.center, 206);
}

// Later runs enter within the screen; contended/partial/failed never; a gross
// outlier never; past the cap the oldest leave (a sliding window).
TEST(Baseline, GrowsWithScreenedGoodRunsThenSlides) {
  DetectionConfig cfg;
  cfg.baseline_max_runs = 8;
  auto h = Series({200, 204, 198, 201, 199, 150, 203, 260, 197, 0, NAN, -5});
  h[6].contended = true;
  Baseline b = ComputeBaseline(h, h.size(), cfg, 0);
  // 150 and 260 are beyond the screen; 203 was contended; 0, NaN and -5 are
  // not positive numbers.
  EXPECT_EQ(b.runs, 6);
  EXPECT_EQ(b.run_ids, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 9}));
  for (int i = 0; i < 5; ++i) h.push_back(Sample{20 + i, h.back().at + 1, 200});
  b = ComputeBaseline(h, h.size(), cfg, 0);
  EXPECT_EQ(b.runs, 8);
  EXPECT_EQ(b.run_ids, (std::vector<std::int64_t>{4, 5, 9, 20, 21, 22, 23, 24}));
}

// A legitimate permanent level change that the screen admits run by run is
// followed: after the window has turned over, the centre is the new level
// (a baseline frozen after its first runs judged against the old one forever).
TEST(Baseline, WindowFollowsALevelItAdmits) {
  DetectionConfig cfg;
  cfg.baseline_max_runs = 20;
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(200 * (i % 2 ? 1.01 : 0.99));
  // 3% lower: well inside the screen, so every run is admitted.
  for (int i = 0; i < 40; ++i) v.push_back(194 * (i % 2 ? 1.01 : 0.99));
  Baseline b = ComputeBaseline(Series(v), v.size(), cfg, 0);
  EXPECT_EQ(b.runs, 20);
  EXPECT_NEAR(b.center, 194, 1);
}

// A baseline whose first runs happened to be tight is not starved: the screen
// is the Student-t prediction at its few degrees of freedom, so the ordinary
// runs of a noisier series get in and the spread grows to what it is.
TEST(Baseline, TightStartDoesNotLockOutOrdinaryRuns) {
  DetectionConfig cfg;
  // CV 1.7% over the first five runs; the series' ordinary runs are +-7%,
  // beyond a 3.5-sigma normal screen of them (and its 6% floor).
  std::vector<double> v;
  for (double e : {-0.02, 0.02, -0.01, 0.01, 0.0}) v.push_back(200 * std::exp(e));
  for (int i = 0; i < 30; ++i) v.push_back(200 * std::exp(i % 2 ? 0.07 : -0.07));
  Baseline b = ComputeBaseline(Series(v), v.size(), cfg, 0);
  EXPECT_EQ(b.runs, 35);
  EXPECT_GT(b.log_sigma, 0.05);
}

// A drop is never absorbed: the runs of an open segment stay out of the
// baseline they are judged against.
TEST(Baseline, OpenSegmentStaysOutOfTheBaseline) {
  DetectionConfig cfg;
  std::vector<double> v = {200, 204, 198, 201, 199, 202, 200, 198};
  for (int i = 0; i < 6; ++i) v.push_back(180 + (i % 2));  // 10% slower for good
  auto h = Series(v);
  Replay r = ReplaySeries(h, h.size(), cfg, 0, Direction::kHigherIsBetter);
  EXPECT_EQ(r.baseline.runs, 8);
  EXPECT_EQ(r.segment.size(), 6u);
  EXPECT_GT(r.cusum, 0);
  EXPECT_TRUE(r.last_judged);
  EXPECT_NEAR(r.last.deviation, std::log(r.baseline.center / 181), 1e-9);
}

// The runs waiting in an open segment widen a tight start's spread before
// they join it, by their scatter about their own mean (a level shift leaves
// that alone), and never move its centre; a run beyond the admission screen
// (an interfered run, or a drop at low noise) is no part of it, nor is the
// newest run (a re-test is not judged against a spread that holds the run it
// re-tests).
TEST(Baseline, WaitingRunsWidenATightStartsSpreadNotItsCentre) {
  DetectionConfig cfg;
  const std::vector<double> start = {200, 204, 198, 201, 199};  // CV 1.2%
  auto with = [&](std::vector<double> later) {
    std::vector<double> v = start;
    v.insert(v.end(), later.begin(), later.end());
    auto h = Series(v);
    return ReplaySeries(h, h.size(), cfg, 0, Direction::kHigherIsBetter);
  };
  const Replay alone = with({});
  // Three runs 1.5-7% low: the CUSUM opens and stays short of its interval,
  // no rule is met, too few runs for the spread's F test.
  const Replay r = with({190, 197, 186});
  ASSERT_EQ(r.segment.size(), 3u);
  ASSERT_EQ(r.segment_pending, 0u);
  EXPECT_EQ(r.baseline.runs, 5);
  EXPECT_DOUBLE_EQ(r.baseline.log_center, alone.baseline.log_center);
  EXPECT_DOUBLE_EQ(r.baseline.own_log_sigma, alone.baseline.own_log_sigma);
  // 190 and 197 (not the newest, 186) scatter 2.6% about their mean: one
  // more degree of freedom, and a wider spread.
  EXPECT_EQ(r.baseline.waiting_df, 1);
  EXPECT_EQ(r.baseline.df(), 5);
  EXPECT_GT(r.baseline.log_sigma, 1.2 * alone.baseline.log_sigma);
  // 186 was judged with 197 the newest waiting run, so 190 alone: no scatter
  // yet (a run's re-test is judged before the run widens anything).
  EXPECT_EQ(r.last_baseline.waiting_df, 0);
  EXPECT_DOUBLE_EQ(r.last_baseline.log_sigma, alone.baseline.log_sigma);
  // A run 40% low is beyond the screen: the one left is no scatter.
  const Replay interfered = with({120, 197, 186});
  ASSERT_EQ(interfered.segment.size(), 3u);
  EXPECT_EQ(interfered.baseline.waiting_df, 0);
  EXPECT_DOUBLE_EQ(interfered.baseline.log_sigma, alone.baseline.log_sigma);
}

// A segment that signalled against a start too tight for the series (CV
// 0.4% over its five runs, ordinary runs +-10%) is released once it has been
// back inside the band three runs in a row and scatters beyond the
// baseline's spread: otherwise it stays out for good and the CUSUM, summing
// scores inflated by the same too-small sigma, alerts again and again.
TEST(Baseline, SignalledSegmentOfATooTightStartIsReleased) {
  DetectionConfig cfg;
  std::vector<double> v = {200, 201, 199, 200.5, 199.5, 170, 172, 190, 160};
  auto h = Series(v);
  Replay r = ReplaySeries(h, h.size(), cfg, 0, Direction::kHigherIsBetter);
  EXPECT_EQ(r.baseline.runs, 5);  // the pair rule met at 170, 172: kept out
  EXPECT_EQ(r.segment.size(), 4u);
  for (double x : {195.0, 205.0, 198.0}) v.push_back(x);
  h = Series(v);
  r = ReplaySeries(h, h.size(), cfg, 0, Direction::kHigherIsBetter);
  EXPECT_GT(r.baseline.runs, 5);
  EXPECT_TRUE(r.segment.empty());
  EXPECT_EQ(r.cusum, 0);
}

// A real drop that comes back part of the way (inside the band) for three
// runs keeps its segment out of the baseline: around their median, its runs
// scatter no more than the baseline does.
TEST(Baseline, SignalledDropWithQuietRunsStaysOut) {
  DetectionConfig cfg;
  const double z[] = {0.3,  -1.2, 0.8,  -0.4, 1.5,  -0.9, 0.1,  0.6, -1.6, 1.1,
                      -0.2, 0.4,  -0.7, 1.9,  -1.1, 0.2,  -0.5, 0.9, -1.4, 0.2};
  std::vector<double> v;
  for (double d : z) v.push_back(200 * std::exp(0.03 * d));
  for (double f : {0.87, 0.88, 0.86, 0.87, 0.88, 0.86, 0.87, 0.88, 0.95, 0.95, 0.95, 0.95})
    v.push_back(200 * f);
  auto h = Series(v);
  Replay r = ReplaySeries(h, h.size(), cfg, 0, Direction::kHigherIsBetter);
  EXPECT_EQ(r.baseline.runs, 20);
  EXPECT_EQ(r.segment.size(), 12u);
  EXPECT_GE(r.cusum, cfg.cusum_h);
}

// A start that was off-centre rather than tight: five runs around 240 with
// their own ordinary spread, the series really at 200. Its segment signals
// and stays out; then three runs in a row come back inside the band (the
// alert resolves) while the segment's runs outnumber the baseline's: the
// baseline is the weaker estimate of the level, and the segment joins it
// through the admission lag. Kept out, the 5-run baseline would judge every
// later run against 240 and the alert would re-open again and again. (On an
// established baseline a drop that comes back part of the way stays out:
// SignalledDropWithQuietRunsStaysOut.)
TEST(Baseline, ResolvedSegmentThatOutnumbersAYoungBaselineJoinsIt) {
  DetectionConfig cfg;
  const std::vector<double> v = {248, 232, 244, 236, 240, 200, 195, 205, 198, 202, 200, 196,
                                 204, 199, 201, 232, 228, 235, 200, 198, 203, 197, 201, 199};
  const auto h = Series(v);
  Replay held = ReplaySeries(h, 17, cfg, 0, Direction::kHigherIsBetter);
  EXPECT_EQ(held.baseline.runs, 5);
  EXPECT_EQ(held.segment.size(), 12u);
  EXPECT_TRUE(RulesOf(held.segment, held.cusum, held.last_baseline, cfg,
                      Direction::kHigherIsBetter).Any() ||
              held.cusum >= cfg.cusum_h);
  Replay r = ReplaySeries(h, h.size(), cfg, 0, Direction::kHigherIsBetter);
  EXPECT_GE(r.baseline.runs, 15);
  EXPECT_LT(r.baseline.center, 216);
}

// The bands are Student-t prediction bands: the same spread gives a wider
// band on fewer runs, and at many runs they approach the normal band.
TEST(Baseline, BandsAreStudentTPredictionBands) {
  DetectionConfig cfg;
  cfg.min_band_percent = 0;
  cfg.confirm_min_percent = 0;
  Baseline b;
  b.log_center = std::log(100.0);
  b.log_sigma = 0.02;
  b.runs = 5;
  const double q5 = StudentTQuantile(NormalCdf(cfg.band_sigmas), 4);
  BandWidths w = SingleWidths(b, cfg);
  EXPECT_NEAR(w.low, q5 * 0.02 * std::sqrt(1.2), 1e-9);
  EXPECT_NEAR(w.high, w.low, 1e-12);
  EXPECT_NEAR(BandOf(b, cfg).low, 100 * std::exp(-w.low), 1e-9);
  const double qp = StudentTQuantile(NormalCdf(cfg.confirm_sigmas), 4);
  EXPECT_NEAR(PairWidths(b, cfg).low, qp * 0.02 * std::sqrt(kPairMeanVariance + 0.2), 1e-9);
  b.runs = 100;
  const BandWidths wide = SingleWidths(b, cfg);
  EXPECT_LT(wide.low, w.low);
  EXPECT_NEAR(wide.low, StudentTQuantile(NormalCdf(cfg.band_sigmas), 99) * 0.02 * std::sqrt(1.01),
              1e-9);
}

// A heavy-tailed figure's pair band comes from the union bound on the pair
// rule (2 P(X > single band) P(X > pair band)), not from one run's tail
// quantile scaled to a mean of two: narrower, still beyond the single band,
// and the same as before for a normal figure.
TEST(Baseline, HeavyTailedPairBandFromTheUnionBound) {
  DetectionConfig cfg;
  cfg.confirm_min_percent = 0;
  cfg.min_band_percent = 0;
  Baseline b;
  b.log_center = std::log(100.0);
  b.log_sigma = 0.03;
  b.runs = 40;
  const BandWidths normal_pair = PairWidths(b, cfg);
  EXPECT_NEAR(normal_pair.low,
              StudentTQuantile(NormalCdf(cfg.confirm_sigmas), 39) * 0.03 *
                  std::sqrt(kPairMeanVariance + 1.0 / 40),
              1e-9);
  b.tail_df = 4;
  // A unit-variance t(4) run over the 40 runs' estimated spread (39 df).
  const double p = NormalCdf(-cfg.confirm_sigmas) / (2 * NormalCdf(-cfg.band_sigmas));
  const double bound = HeavyTQuantile(1 - p, 39, 4) * 0.03 * std::sqrt(1 + 1.0 / 40);
  const double old_way = HeavyTQuantile(NormalCdf(cfg.confirm_sigmas), 39, 4) * 0.03 *
                         std::sqrt(kPairMeanVariance + 1.0 / 40);
  const BandWidths heavy = PairWidths(b, cfg);
  EXPECT_NEAR(heavy.low, bound, 1e-9);
  EXPECT_LT(heavy.low, 0.6 * old_way);
  EXPECT_GT(heavy.low, SingleWidths(b, cfg).low);
  EXPECT_GT(heavy.low, normal_pair.low);
}

// The percentage floors hold for a tight (or zero-spread) baseline, on each
// side in its own form: 6% below is -log(0.94), 6% above is log(1.06).
TEST(Baseline, PercentFloorsHoldForATightBaseline) {
  DetectionConfig cfg;
  Baseline b;
  b.log_center = std::log(200.0);
  b.log_sigma = 0;
  b.runs = 30;
  EXPECT_NEAR(BandOf(b, cfg).low, 200 * (1 - cfg.min_band_percent / 100), 1e-9);
  EXPECT_NEAR(BandOf(b, cfg).high, 200 * (1 + cfg.min_band_percent / 100), 1e-9);
  EXPECT_NEAR(PairBandOf(b, cfg).low, 200 * (1 - cfg.confirm_min_percent / 100), 1e-9);
}

// What a series can tell apart: a quiet one sees a 15% drop in 2 runs, a
// noisy one needs the CUSUM's runs, a very noisy one cannot see it.
TEST(Baseline, RunsToDetectFollowsTheNoise) {
  DetectionConfig cfg;
  Baseline b;
  b.ready = true;
  b.log_center = std::log(200.0);
  b.runs = 50;
  b.log_sigma = 0.02;
  EXPECT_EQ(RunsToDetect(b, cfg, 15, Direction::kHigherIsBetter), 2);
  b.log_sigma = 0.07;
  const int noisy = RunsToDetect(b, cfg, 15, Direction::kHigherIsBetter);
  EXPECT_GT(noisy, 2);
  EXPECT_LE(noisy, 52);
  // A scheduled run and its re-test: the run that opens an alert is even.
  EXPECT_EQ(noisy % 2, 0);
  b.log_sigma = 0.5;
  EXPECT_EQ(RunsToDetect(b, cfg, 15, Direction::kHigherIsBetter), 0);
  // The noisier, the more runs, until none are promised; a young baseline
  // (the same estimate from fewer runs) promises no fewer than a grown one.
  for (int runs : {6, 12, 50}) {
    int before = 2;
    bool none = false;
    for (double sd = 0.01; sd <= 0.2; sd += 0.005) {
      b.runs = runs;
      b.log_sigma = sd;
      const int r = RunsToDetect(b, cfg, 15, Direction::kHigherIsBetter);
      if (none || r == 0) {
        none = true;
        EXPECT_EQ(r, 0) << runs << " runs, sd " << sd;
        continue;
      }
      EXPECT_GE(r, before) << runs << " runs, sd " << sd;
      before = r;
      b.runs = 50;
      const int grown = RunsToDetect(b, cfg, 15, Direction::kHigherIsBetter);
      EXPECT_TRUE(grown > 0 && grown <= r) << runs << " runs, sd " << sd << ": " << r
                                           << " against " << grown << " on 50 runs";
    }
    EXPECT_TRUE(none) << runs << " runs";
  }
  b.runs = 50;
  // Under the pair floor nothing is ever reported.
  b.log_sigma = 0.001;
  EXPECT_EQ(RunsToDetect(b, cfg, 5, Direction::kHigherIsBetter), 0);
  b.ready = false;
  EXPECT_EQ(RunsToDetect(b, cfg, 15, Direction::kHigherIsBetter), 0);
}

// A seek stroke's young baseline pooled with its siblings can measure far
// less than its noise (3.1% at 5%: field model, seed 7); a CUSUM of 7
// ordinary runs, their median 11.4% above it, then passed the shift test at
// 4.5 standard errors. Access times have heavy tails, so theirs is the
// Student-t quantile at the baseline's degrees of freedom (6.0 at 20):
// not a signal. The same segment of a throughput, near-normal, still is.
TEST(Baseline, AYoungHeavyTailedBaselinesShiftNeedsItsStudentTQuantile) {
  DetectionConfig cfg;
  Baseline b;
  b.ready = true;
  b.runs = 5;
  b.log_center = std::log(9.52);
  b.log_sigma = 0.031;
  b.prior_df = 16;  // four siblings' own 5 runs
  b.tail_df = TailDfOf("access_ms");
  std::vector<JudgedRun> seg;
  for (double v : {9.88, 10.63, 10.97, 11.71, 10.11, 10.67, 10.99}) {
    JudgedRun r;
    r.deviation = std::log(v / 9.52);
    r.score = std::min(cfg.cusum_cap, r.deviation / b.log_sigma);
    r.outside = r.deviation > 0.07;
    seg.push_back(r);
  }
  EXPECT_FALSE(RulesOf(seg, 12.1, b, cfg, Direction::kLowerIsBetter).cusum);
  b.tail_df = 0;
  EXPECT_TRUE(RulesOf(seg, 12.1, b, cfg, Direction::kLowerIsBetter).cusum);
  // Once the family has grown (df 500), 4.6 standard errors: a shift of
  // 11.4% on 100 runs is a signal for both.
  b.tail_df = TailDfOf("access_ms");
  b.runs = 100;
  b.prior_df = 400;
  EXPECT_TRUE(RulesOf(seg, 12.1, b, cfg, Direction::kLowerIsBetter).cusum);
}

// Healthy heavy-tailed runs (unit-variance t(4), a p99's tails; t(10), an
// access time's) judged against young baselines of the same runs pass the
// band the daemon draws at 3.5 sigmas about as often as 3.5 sigmas say
// (2.3e-4), not 2.5-4.6 times as often as under the larger of the two
// quantiles. Seeded Monte Carlo; each baseline's chance of being passed by
// the next run is exact (the t tail of that run).
TEST(Baseline, HeavyTailedYoungBaselinesKeepTheirBandsProbability) {
  DetectionConfig cfg;
  cfg.band_sigmas = 3.5;
  cfg.min_band_percent = 0;
  const double nominal = NormalCdf(-cfg.band_sigmas);
  for (auto [nu, runs] : {std::pair{4.0, 6}, std::pair{10.0, 10}}) {
    std::mt19937_64 gen(20261202);
    std::normal_distribution<double> normal;
    std::chi_squared_distribution<double> chi(nu);
    const double unit = std::sqrt((nu - 2) / nu);
    constexpr int kBaselines = 100000;
    double passed = 0;
    for (int k = 0; k < kBaselines; ++k) {
      double sum = 0, sq = 0;
      std::vector<double> x(static_cast<std::size_t>(runs));
      for (double& v : x) {
        v = normal(gen) / std::sqrt(chi(gen) / nu) * unit;
        sum += v;
      }
      const double mean = sum / runs;
      for (double v : x) sq += (v - mean) * (v - mean);
      const double c4 = 1 - 1.0 / (4.0 * runs) - 7.0 / (32.0 * runs * runs);
      Baseline b;
      b.ready = true;
      b.runs = runs;
      b.log_center = mean;
      b.log_sigma = std::sqrt(sq / (runs - 1)) / c4;
      b.tail_df = nu;
      const double limit = mean + SingleWidths(b, cfg).high;
      passed += 1 - StudentTCdf(limit / unit, nu);
    }
    const double rate = passed / kBaselines;
    EXPECT_LT(rate, 1.6 * nominal) << "t(" << nu << "), " << runs << " runs";
    EXPECT_GT(rate, 0.6 * nominal) << "t(" << nu << "), " << runs << " runs";
  }
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
