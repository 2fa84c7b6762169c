// The family's pooled spread (baseline.h, SpreadPrior): how it is pooled,
// when a series refuses it, and what it changes for a young baseline.
#include <gtest/gtest.h>

#include <cmath>

#include "detect/baseline.h"
#include "detect/change_detector.h"
#include "detect/series.h"
#include "detect/student_t.h"

namespace dp::detect {
namespace {

constexpr std::int64_t kWeek = 7 * 86400;

double C4(int n) { return 1 - 1.0 / (4.0 * n) - 7.0 / (32.0 * n * n); }

Baseline Formed(double own_sigma, int runs) {
  Baseline b;
  b.ready = true;
  b.runs = runs;
  b.own_log_sigma = b.log_sigma = own_sigma;
  return b;
}

// `n` values around `level` whose logs have sample sd `sd` exactly (a
// symmetric pattern scaled to it).
std::vector<double> Spread(double level, double sd, int n) {
  std::vector<double> z;
  for (int i = 0; i < n; ++i) z.push_back((i % 2 ? 1.0 : -1.0) * (1 + (i / 2) % 3));
  double m = 0, ss = 0;
  for (double x : z) m += x;
  m /= n;
  for (double x : z) ss += (x - m) * (x - m);
  const double scale = sd / std::sqrt(ss / (n - 1));
  std::vector<double> out;
  for (double x : z) out.push_back(level * std::exp((x - m) * scale));
  return out;
}

std::vector<Sample> Series(const std::vector<double>& values) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         1'767'225'600 + static_cast<std::int64_t>(i) * kWeek, values[i]});
  return out;
}

void Append(std::vector<Sample>& h, double value, std::int64_t after) {
  h.push_back(Sample{h.back().run_id + 1, h.back().at + after, value});
}

TEST(SpreadPrior, PooledVarianceWeightsEachMemberByItsDegreesOfFreedom) {
  Baseline forming = Formed(0.5, 3);
  forming.ready = false;
  const SpreadPrior p =
      PoolSpread({Formed(0.03, 10), Formed(0.04, 21), forming, Formed(0.03, 1)});
  EXPECT_EQ(p.members, 2);
  EXPECT_DOUBLE_EQ(p.df, 9 + 20);
  const double v1 = std::pow(0.03 * C4(10), 2), v2 = std::pow(0.04 * C4(21), 2);
  EXPECT_NEAR(p.log_sd, std::sqrt((9 * v1 + 20 * v2) / 29), 1e-12);
  EXPECT_EQ(PoolSpread({}).df, 0);
}

// A member whose young baseline kept an interfered run (CV 14% among
// members of 3%) is left out of its family's pool.
TEST(SpreadPrior, OutlyingMemberIsLeftOut) {
  const SpreadPrior p =
      PoolSpread({Formed(0.03, 10), Formed(0.14, 6), Formed(0.031, 10), Formed(0.029, 10)});
  EXPECT_EQ(p.members, 3);
  EXPECT_DOUBLE_EQ(p.df, 27);
  EXPECT_NEAR(p.log_sd, 0.03 * C4(10), 0.001);
  // Members that agree are all kept, the noisiest included.
  EXPECT_EQ(PoolSpread({Formed(0.03, 10), Formed(0.036, 10), Formed(0.027, 10)}).members, 3);
}

// The largest of five alike young spreads beats the other four by the F test
// at 5% about one time in six: judged with the whole set (Bartlett's test)
// it stays, so the pool does not keep only the tight ones.
TEST(SpreadPrior, LargestOfAlikeYoungSpreadsIsKept) {
  // Variance ratio 3.5 against the rest (4 and 16 degrees of freedom): beyond
  // F's 5% point (3.01), within its 1% point (4.77).
  const double rest = 0.03, largest = 0.03 * std::sqrt(3.5);
  std::vector<Baseline> five = {Formed(largest / C4(5), 5)};
  for (int i = 0; i < 4; ++i) five.push_back(Formed(rest / C4(5), 5));
  const SpreadPrior p = PoolSpread(five);
  EXPECT_EQ(p.members, 5);
  EXPECT_NEAR(p.log_sd, std::sqrt((3.5 + 4) / 5) * rest, 1e-9);
  // Ratio 12 (Bartlett p 0.017) is unlike at 5% but not at 1%: still
  // pooled. Ratio 16 (p 0.005) is left out.
  five[0] = Formed(0.03 * std::sqrt(12.0) / C4(5), 5);
  EXPECT_EQ(PoolSpread(five).members, 5);
  five[0] = Formed(0.03 * std::sqrt(16.0) / C4(5), 5);
  EXPECT_EQ(PoolSpread(five).members, 4);
}

// A drive's read path at 5% noise (field model, traced): outer, middle and
// inner zones measured 4.1%, 2.2% and 8.0% on 7 runs each, the inner one
// wide by a heavy draw in its first runs. Bartlett's test calls them unlike
// at 5% (p ~0.02) but not at 1%: all three are pooled (about 5.3%), since
// leaving out the widest made the pool 3.0% and the family's seq series,
// as tight on 5 runs, took two ordinary low runs for a slowdown.
TEST(SpreadPrior, TheNoisiestOfAlikeYoungSpreadsIsPooled) {
  const std::vector<Baseline> path = {Formed(0.0414, 7), Formed(0.0224, 7), Formed(0.0795, 7)};
  const SpreadPrior p = PoolSpread(path);
  EXPECT_EQ(p.members, 3);
  EXPECT_DOUBLE_EQ(p.df, 18);
  double ss = 0;
  for (const Baseline& b : path) ss += 6 * std::pow(b.own_log_sigma * C4(7), 2);
  EXPECT_NEAR(p.log_sd, std::sqrt(ss / 18), 1e-12);
  EXPECT_GT(p.log_sd, 0.048);
  // As far apart again (the widest at 12% among 2-4%) they are unlike at
  // 1% too, and the widest is left out.
  EXPECT_EQ(PoolSpread({Formed(0.0414, 7), Formed(0.0224, 7), Formed(0.12, 7)}).members, 2);
}

// A seek stroke's family at 15% noise (field model, traced): three siblings
// measured 16%, 11% and 32% on 9 runs, one (short-backward) agreed by chance
// to 1.1% on 8. Each noisier sibling was larger than the pool of the rest,
// which the tight one dragged down, and the pool became that one member; a
// stroke as tight then took 1.1% for its noise and alerted on ordinary runs.
// Judged as one set, the tight member is left out and the three noisier
// ones, alike at 1%, are the pool: about 22% (wide, not narrow).
TEST(SpreadPrior, ATightMemberDoesNotMakeItsSiblingsLookTooLarge) {
  const SpreadPrior p = PoolSpread({Formed(0.164 / C4(9), 9), Formed(0.111 / C4(9), 9),
                                    Formed(0.317 / C4(9), 9), Formed(0.0114 / C4(8), 8)});
  EXPECT_EQ(p.members, 3);
  EXPECT_DOUBLE_EQ(p.df, 24);
  EXPECT_NEAR(p.log_sd, std::sqrt((0.164 * 0.164 + 0.111 * 0.111 + 0.317 * 0.317) / 3), 1e-9);
  // One tight start among four alike members is left out too.
  const SpreadPrior q = PoolSpread({Formed(0.05, 10), Formed(0.055, 10), Formed(0.045, 10),
                                    Formed(0.05, 10), Formed(0.004, 10)});
  EXPECT_EQ(q.members, 4);
  EXPECT_GT(q.log_sd, 0.04);
  // A member a third as wide as four alike ones on 10 runs each: unlike
  // them at 5% (Bartlett p ~0.01) but not far off (p > 1e-4), so it is
  // pooled with them and none of them is left out in its place.
  EXPECT_EQ(PoolSpread({Formed(0.05, 10), Formed(0.055, 10), Formed(0.045, 10),
                        Formed(0.05, 10), Formed(0.015, 10)})
                .members,
            5);
}

// A joint series' spread is at least its members' pooled sd over sqrt(k):
// three zones of 6% whose noise cancelled in their mean leave the joint's
// own runs almost flat, and its baseline is widened to what they imply.
TEST(SpreadPrior, JointSeriesIsNeverTighterThanItsMembersImply) {
  DetectionConfig cfg;
  const std::vector<double> up = Spread(200, 0.06, 8);
  std::vector<double> down, flat;
  for (double v : up) {
    down.push_back(150 * 200 / v);  // the mirror image on the log scale
    flat.push_back(100 * std::exp(0.001 * (flat.size() % 2)));
  }
  const std::vector<std::vector<Sample>> members = {Series(up), Series(down), Series(flat)};
  // Each member's baseline from its own runs, as its family pools them.
  auto formed = [&](const std::vector<std::vector<Sample>>& series) {
    std::vector<Baseline> out;
    for (const auto& s : series) out.push_back(ComputeBaseline(s, s.size(), cfg, 0));
    return out;
  };
  const SpreadPrior floor = JointSpreadFloor(formed(members));
  EXPECT_EQ(floor.df, 0);  // a floor, not a pool
  // The flat member is not alike the other two (Bartlett's test): their
  // pooled 6% is the members' noise.
  EXPECT_NEAR(floor.floor_log_sd, 0.06 / std::sqrt(3.0), 0.002);
  const auto joint = JointSamples(members);
  const Baseline own = ComputeBaseline(joint, joint.size(), cfg, 0, Direction::kHigherIsBetter);
  const Baseline floored =
      ComputeBaseline(joint, joint.size(), cfg, 0, Direction::kHigherIsBetter, 0, floor);
  EXPECT_LT(own.log_sigma, 0.005);
  EXPECT_NEAR(floored.log_sigma, floor.floor_log_sd, 1e-12);
  EXPECT_NEAR(floored.own_log_sigma, own.log_sigma, 1e-12);  // its own runs say what they say
  EXPECT_GT(PairBandOf(own, cfg).low, PairBandOf(floored, cfg).low);
  // A floor never narrows: a joint noisier than it keeps its own spread.
  SpreadPrior low = floor;
  low.floor_log_sd = own.log_sigma / 2;
  EXPECT_DOUBLE_EQ(ComputeBaseline(joint, joint.size(), cfg, 0, Direction::kHigherIsBetter, 0,
                                   low).log_sigma,
                   own.log_sigma);
  // Members still forming their baselines give no floor.
  std::vector<std::vector<Sample>> young;
  for (const auto& m : members) young.emplace_back(m.begin(), m.begin() + 3);
  EXPECT_EQ(JointSpreadFloor(formed(young)).floor_log_sd, 0);
  EXPECT_EQ(JointSpreadFloor({}).floor_log_sd, 0);
}

TEST(SpreadPrior, YoungBaselineTakesItsFamilysDegreesOfFreedom) {
  DetectionConfig cfg;
  const auto h = Series(Spread(200, 0.03, 10));
  const Baseline alone = ComputeBaseline(h, h.size(), cfg, 0);
  const SpreadPrior prior{0.03, 27, 3};
  const Baseline pooled =
      ComputeBaseline(h, h.size(), cfg, 0, Direction::kHigherIsBetter, 0, prior);
  ASSERT_TRUE(alone.ready && pooled.ready);
  EXPECT_DOUBLE_EQ(alone.df(), 9);
  EXPECT_DOUBLE_EQ(pooled.prior_df, 27);
  EXPECT_DOUBLE_EQ(pooled.df(), 36);
  EXPECT_NEAR(pooled.own_log_sigma, alone.log_sigma, 1e-12);
  // Same spread, four times the degrees of freedom: the pair band of a
  // 10-run baseline shrinks by the Student-t quantiles' ratio.
  EXPECT_NEAR(pooled.log_sigma, alone.log_sigma * C4(10) / C4(37), 1e-9);
  const double ratio = PairWidths(pooled, cfg).low / PairWidths(alone, cfg).low;
  const double p = NormalCdf(cfg.confirm_sigmas);
  EXPECT_NEAR(ratio, StudentTQuantile(p, 36) / StudentTQuantile(p, 9) * C4(10) / C4(37), 1e-6);
  EXPECT_LT(ratio, 0.75);
}

// A 15% drop at 3% noise right after a 10-run baseline: the series alone
// cannot vouch for two runs (its pair band is ~20% wide), pooled with its
// read path's other series it alerts on the re-test.
TEST(SpreadPrior, FifteenPercentDropOnAYoungBaselineIsSeenWithinTwoRuns) {
  DetectionConfig cfg;
  const SeriesKey key{"wwn-1", "sda", "zones", "outer", "mb_per_s"};
  auto h = Series(Spread(200, 0.03, 10));
  Append(h, 200 * 0.85 * 1.01, kWeek);
  Append(h, 200 * 0.85 * 0.99, 6 * 3600);
  const Verdict alone = EvaluateChange(key, h, cfg);
  const Verdict pooled = EvaluateChange(key, h, cfg, 0, SpreadPrior{0.03, 27, 3});
  EXPECT_EQ(alone.kind, VerdictKind::kNeedsConfirmation) << alone.summary;
  EXPECT_EQ(pooled.kind, VerdictKind::kSlowdown) << pooled.summary;
  EXPECT_NE(pooled.summary.find("with 3 series of the same read path"), std::string::npos)
      << pooled.summary;
  EXPECT_DOUBLE_EQ(pooled.details["noise_df"].get<double>(), 36);
  EXPECT_EQ(pooled.details["noise_pooled_series"], 3);
  // It alerted within 2 runs here, but at 3% noise on 10 runs the pair's
  // mean clears the pair band by 1.3 sigmas: 2 runs for about 9 drops in 10,
  // so the series promises the CUSUM's 4 (for 19 in 20), not 2.
  EXPECT_EQ(pooled.details["detectable"]["runs"], 4) << pooled.summary;
  EXPECT_GT(alone.details["detectable"]["runs"].get<int>(), 4) << alone.summary;
}

// A joint series' spread is known as well as its members' floor says, not
// only as well as its own few runs do: on an 8-run baseline the zones all
// 14% down in a run and its re-test were a pair with the floor's degrees of
// freedom and only "needs confirmation" with its own 7 (field model, 3%
// noise: the 2-run goal's misses on young baselines). Its spread stays its
// own (the floor, biased low by the shared factor, never narrows it), and a
// joint far noisier than the floor keeps its own degrees of freedom.
TEST(SpreadPrior, AJointSeriesTakesItsFloorsDegreesOfFreedom) {
  DetectionConfig cfg;
  const SeriesKey key{"wwn-1", "sda", "zones", kJointSeries, "mb_per_s"};
  auto h = Series(Spread(180, 0.023, 8));
  SpreadPrior floor;
  floor.floor_log_sd = 0.021;
  floor.floor_df = 21;
  const Baseline alone = ComputeBaseline(h, h.size(), cfg, 0, Direction::kHigherIsBetter);
  const Baseline floored =
      ComputeBaseline(h, h.size(), cfg, 0, Direction::kHigherIsBetter, 0, floor);
  EXPECT_DOUBLE_EQ(alone.df(), 7);
  EXPECT_DOUBLE_EQ(floored.df(), 7 + 21);
  EXPECT_DOUBLE_EQ(floored.log_sigma, alone.log_sigma);
  EXPECT_LT(PairBandOf(alone, cfg).low, PairBandOf(floored, cfg).low);

  Append(h, 180 * 0.86, kWeek);
  Append(h, 180 * 0.86, 6 * 3600);
  EXPECT_EQ(EvaluateChange(key, h, cfg).kind, VerdictKind::kNeedsConfirmation);
  const Verdict v = EvaluateChange(key, h, cfg, 0, floor);
  EXPECT_EQ(v.kind, VerdictKind::kSlowdown) << v.summary;
  EXPECT_DOUBLE_EQ(v.details["noise_df"].get<double>(), 28);

  // The floor above the joint's own spread: the floor's degrees of freedom.
  SpreadPrior wide = floor;
  wide.floor_log_sd = 0.03;
  const Baseline lifted =
      ComputeBaseline(h, 8, cfg, 0, Direction::kHigherIsBetter, 0, wide);
  EXPECT_DOUBLE_EQ(lifted.log_sigma, 0.03);
  EXPECT_DOUBLE_EQ(lifted.df(), 21);
  // Far noisier than its floor (an F test at 5%): its own 7.
  SpreadPrior low = floor;
  low.floor_log_sd = 0.008;
  EXPECT_DOUBLE_EQ(
      ComputeBaseline(h, 8, cfg, 0, Direction::kHigherIsBetter, 0, low).df(), 7);
}

// A series much noisier than its family keeps its own spread: judged by the
// family's it would alert on its ordinary runs.
TEST(SpreadPrior, NoisierSeriesKeepsItsOwnSpread) {
  DetectionConfig cfg;
  const auto h = Series(Spread(200, 0.08, 10));
  const Baseline b =
      ComputeBaseline(h, h.size(), cfg, 0, Direction::kHigherIsBetter, 0, SpreadPrior{0.02, 27, 3});
  EXPECT_EQ(b.prior_df, 0);
  EXPECT_DOUBLE_EQ(b.df(), 9);
  EXPECT_DOUBLE_EQ(b.log_sigma, b.own_log_sigma);
}

// Five first runs that happened to agree within 0.5% are widened by a
// family of 3%: the tight start that raised the same false alert again and
// again is not trusted on its own.
TEST(SpreadPrior, TightStartIsWidenedByItsFamily) {
  DetectionConfig cfg;
  const auto h = Series(Spread(200, 0.005, 5));
  const Baseline b =
      ComputeBaseline(h, h.size(), cfg, 0, Direction::kHigherIsBetter, 0, SpreadPrior{0.03, 30, 3});
  EXPECT_NEAR(b.own_log_sigma, 0.005 / C4(5), 1e-9);
  EXPECT_DOUBLE_EQ(b.prior_df, 30);
  const double pooled_sd = std::sqrt((4 * 0.005 * 0.005 + 30 * 0.03 * 0.03) / 34);
  EXPECT_NEAR(b.log_sigma, pooled_sd / C4(35), 1e-9);
  EXPECT_GT(b.log_sigma, 5 * b.own_log_sigma);
}

TEST(SpreadPrior, FamiliesFollowTheReadPathAndTheMetric) {
  const SeriesKey outer{"w", "sda", "zones", "outer", "mb_per_s"};
  EXPECT_TRUE(SameNoiseFamily(outer, {"w", "sda", "zones", "inner", "mb_per_s"}));
  EXPECT_TRUE(SameNoiseFamily(outer, {"w", "sda", "seq", "qd8-1m", "mb_per_s"}));
  EXPECT_FALSE(SameNoiseFamily(outer, outer));
  EXPECT_FALSE(SameNoiseFamily(outer, {"w2", "sdb", "zones", "inner", "mb_per_s"}));
  EXPECT_FALSE(SameNoiseFamily(outer, {"w", "sda", "random", "qd1-4k", "iops"}));
  const SeriesKey full{"w", "sda", "seek", "full", "access_ms"};
  EXPECT_TRUE(SameNoiseFamily(full, {"w", "sda", "seek", "half", "access_ms"}));
  EXPECT_FALSE(SameNoiseFamily(full, {"w", "sda", "zones", "outer", "mb_per_s"}));
  EXPECT_TRUE(SameNoiseFamily({"w", "sda", "random", "qd1-4k", "iops"},
                              {"w", "sda", "random", "qd32-4k", "iops"}));
  // p99 latencies pool with nothing: their tails make a sample variance erratic.
  EXPECT_FALSE(SameNoiseFamily({"w", "sda", "random", "qd1-4k", "p99_us"},
                               {"w", "sda", "random", "qd32-4k", "p99_us"}));
}

}  // namespace
}  // namespace dp::detect
