#include "detect/peer_detector.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;

PeerHistory Peer(const std::string& id, std::vector<double> values, std::int64_t offset = 1800) {
  PeerHistory p{id, id, {}};
  for (std::size_t i = 0; i < values.size(); ++i)
    p.samples.push_back(Sample{static_cast<std::int64_t>(100 + i),
                               kT0 + static_cast<std::int64_t>(i) * kWeek + offset, values[i]});
  return p;
}

std::vector<Sample> Own(std::vector<double> values) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         kT0 + static_cast<std::int64_t>(i) * kWeek, values[i]});
  return out;
}

const SeriesKey kKey{"wwn-6", "sdf", "seq", "qd8-1m", "mb_per_s"};

// n runs around `level`, spread `cv` (an alternating +-cv pattern with a
// little drift, so the sd of the logs is about cv), then `last`.
std::vector<double> Runs(double level, double cv, int n, std::vector<double> last = {}) {
  std::vector<double> out;
  const double shape[] = {1, -1, 0.5, -0.5, 1.5, -1.5, 0.2, -0.2};
  for (int i = 0; i < n; ++i) out.push_back(level * std::exp(cv * shape[i % 8]));
  out.insert(out.end(), last.begin(), last.end());
  return out;
}

// Five siblings with six weeks behind them (their baselines formed: the
// series' noise is known), then two more windows.
std::vector<PeerHistory> FiveSiblings() {
  return {Peer("a", Runs(200, 0.01, 6, {200, 202})), Peer("b", Runs(198, 0.01, 6, {198, 197})),
          Peer("c", Runs(201, 0.01, 6, {201, 203})), Peer("d", Runs(202, 0.01, 6, {205, 199})),
          Peer("e", Runs(199, 0.01, 6, {196, 200}))};
}

// The drive's own six weeks in line with them, then `last`.
std::vector<Sample> OwnAfter(std::vector<double> last) { return Own(Runs(200, 0.01, 6, last)); }

TEST(PeerDetector, DriveTwentyPercentSlowerIsFlaggedInTwoWindows) {
  DetectionConfig cfg;
  Verdict first = EvaluatePeers(kKey, OwnAfter({200, 160}), FiveSiblings(), cfg);
  EXPECT_EQ(first.kind, VerdictKind::kNeedsConfirmation) << first.summary;
  Verdict v = EvaluatePeers(kKey, OwnAfter({160, 158}), FiveSiblings(), cfg);
  ASSERT_EQ(v.kind, VerdictKind::kPeerOutlier) << v.summary;
  EXPECT_TRUE(v.Firing());
  EXPECT_EQ(v.condition, "peer:seq:qd8-1m:mb_per_s");
  EXPECT_NEAR(*v.peer_median, 200, 0.01);
  EXPECT_NEAR(*v.change_percent, 21, 0.01);
  EXPECT_EQ(v.details["siblings"].size(), 5u);
  EXPECT_NE(v.summary.find("below the median of its 5 siblings"), std::string::npos) << v.summary;
}

TEST(PeerDetector, InLineIsClear) {
  DetectionConfig cfg;
  EXPECT_EQ(EvaluatePeers(kKey, OwnAfter({195, 199}), FiveSiblings(), cfg).kind,
            VerdictKind::kClear);
}

TEST(PeerDetector, SiblingsOutsideTheWindowDoNotCount) {
  DetectionConfig cfg;
  std::vector<PeerHistory> far = {Peer("a", Runs(200, 0.01, 8), 2 * 86400),
                                  Peer("b", Runs(200, 0.01, 8), 2 * 86400)};
  Verdict v = EvaluatePeers(kKey, OwnAfter({150, 150}), far, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kInconclusive) << v.summary;
  // One sibling is not enough either.
  EXPECT_EQ(EvaluatePeers(kKey, OwnAfter({150, 150}), {Peer("a", Runs(200, 0.01, 8))}, cfg).kind,
            VerdictKind::kInconclusive);
}

TEST(PeerDetector, ContendedSiblingRunsAndOwnRunsAreNotEvidence) {
  DetectionConfig cfg;
  auto sib = FiveSiblings();
  for (auto& p : sib)
    for (auto& s : p.samples) s.contended = true;
  EXPECT_EQ(EvaluatePeers(kKey, OwnAfter({150, 150}), sib, cfg).kind, VerdictKind::kInconclusive);
  auto own = OwnAfter({150, 150});
  own.back().contended = true;
  EXPECT_EQ(EvaluatePeers(kKey, own, FiveSiblings(), cfg).kind, VerdictKind::kInconclusive);
}

TEST(PeerDetector, LatencyHigherThanSiblingsIsWorse) {
  DetectionConfig cfg;
  SeriesKey k = kKey;
  k.metric = "p99_us";
  std::vector<PeerHistory> sib = {Peer("a", Runs(1000, 0.02, 22)), Peer("b", Runs(1010, 0.02, 22)),
                                  Peer("c", Runs(995, 0.02, 22))};
  EXPECT_EQ(EvaluatePeers(k, Own(Runs(1000, 0.02, 20, {1800, 1750})), sib, cfg).kind,
            VerdictKind::kPeerOutlier);
  EXPECT_EQ(EvaluatePeers(k, Own(Runs(1000, 0.02, 20, {700, 700})), sib, cfg).kind,
            VerdictKind::kClear);
}

// Nothing is compared before some drive's baseline says how noisy the series
// is: a percentage alone is the wrong yardstick for a noisy one.
TEST(PeerDetector, NothingIsComparedBeforeTheNoiseIsKnown) {
  DetectionConfig cfg;
  SeriesKey k = kKey;
  k.metric = "p99_us";
  std::vector<PeerHistory> sib = {Peer("a", {1000, 1000}), Peer("b", {1010, 990}),
                                  Peer("c", {995, 1005})};
  Verdict v = EvaluatePeers(k, Own({1500, 1450}), sib, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kInconclusive) << v.summary;
  EXPECT_NE(v.summary.find("noise is not known yet"), std::string::npos) << v.summary;
  std::vector<PeerHistory> young = {Peer("a", {200, 202}), Peer("b", {198, 197}),
                                    Peer("c", {201, 203})};
  EXPECT_EQ(EvaluatePeers(kKey, Own({160, 158}), young, cfg).kind, VerdictKind::kInconclusive);
  // Once one drive has its baseline (here the drive itself, twenty weeks
  // in, beside siblings new to the vdev), it is.
  std::vector<PeerHistory> joined = {Peer("a", {200, 202}, 20 * kWeek + 1800),
                                     Peer("b", {198, 197}, 20 * kWeek + 1800),
                                     Peer("c", {201, 203}, 20 * kWeek + 1800)};
  EXPECT_EQ(EvaluatePeers(kKey, Own(Runs(200, 0.01, 20, {160, 158})), joined, cfg).kind,
            VerdictKind::kPeerOutlier);
}

// Two siblings and a noisy series: a short-stroke seek whose runs swing 6%
// is 12% above its siblings' median twice. The floor alone (10%) flagged it;
// against the series' own noise it is not evidence. The same 12% on a series
// of 1% noise is.
TEST(PeerDetector, NoisySeriesIsJudgedByItsNoiseNotTheFloorAlone) {
  DetectionConfig cfg;
  SeriesKey k{"wwn-3", "sdc", "seek", "short-forward", "access_ms"};
  const std::vector<PeerHistory> noisy = {Peer("a", Runs(4.0, 0.06, 20, {4.0, 4.0})),
                                          Peer("b", Runs(4.1, 0.06, 20, {4.1, 4.1}))};
  Verdict v = EvaluatePeers(k, Own(Runs(4.0, 0.06, 20, {4.5, 4.5})), noisy, cfg);
  EXPECT_NE(v.kind, VerdictKind::kPeerOutlier) << v.summary;
  ASSERT_TRUE(v.details.contains("noise_percent")) << v.details.dump();
  EXPECT_NEAR(v.details["noise_percent"].get<double>(), 6, 2);
  ASSERT_TRUE(v.band_high.has_value());
  EXPECT_GT(*v.band_high, 4.05 * 1.12);  // wider than the floor's 10%
  const std::vector<PeerHistory> quiet = {Peer("a", Runs(4.0, 0.01, 20, {4.0, 4.0})),
                                          Peer("b", Runs(4.1, 0.01, 20, {4.1, 4.1}))};
  Verdict q = EvaluatePeers(k, Own(Runs(4.0, 0.01, 20, {4.55, 4.55})), quiet, cfg);
  EXPECT_EQ(q.kind, VerdictKind::kPeerOutlier) << q.summary;
}

// Two windows each just outside the band are not enough when their mean is
// inside the pair band: the single band is 2.25 sigmas, the pair 4.5.
TEST(PeerDetector, TwoWindowsNeedTheirMeanBeyondThePairBand) {
  DetectionConfig cfg;
  cfg.peer_min_percent = 1;  // let the noise decide
  const auto sib = std::vector<PeerHistory>{Peer("a", Runs(200, 0.03, 30, {200, 200})),
                                            Peer("b", Runs(200, 0.03, 30, {200, 200})),
                                            Peer("c", Runs(200, 0.03, 30, {200, 200}))};
  // About 3.5 sigmas of the difference below in both windows: each outside,
  // their mean not beyond the pair band.
  Verdict near = EvaluatePeers(kKey, Own(Runs(200, 0.03, 30, {174, 174})), sib, cfg);
  EXPECT_EQ(near.kind, VerdictKind::kNeedsConfirmation) << near.summary;
  Verdict far = EvaluatePeers(kKey, Own(Runs(200, 0.03, 30, {150, 150})), sib, cfg);
  EXPECT_EQ(far.kind, VerdictKind::kPeerOutlier) << far.summary;
}

// An access time has heavy tails: the mean of two windows is about as
// heavy-tailed as one, so one wild window carried a pair's mean past the
// band (field model, 3% noise: a seek stroke at 21.0 and then 13.5 ms beside
// its two siblings' 12.0 ms). For such a figure both windows must be beyond
// the pair band; a stroke that is slower in both is still flagged.
TEST(PeerDetector, AHeavyTailedFigureNeedsBothWindowsBeyondThePairBand) {
  DetectionConfig cfg;
  SeriesKey k{"wwn-3", "sdc", "seek", "half", "access_ms"};
  const std::vector<PeerHistory> sib = {Peer("a", Runs(12.0, 0.03, 20, {12.0, 12.0})),
                                        Peer("b", Runs(12.0, 0.03, 20, {12.0, 12.0}))};
  Verdict wild = EvaluatePeers(k, Own(Runs(12.0, 0.03, 20, {21.0, 13.5})), sib, cfg);
  EXPECT_EQ(wild.kind, VerdictKind::kNeedsConfirmation) << wild.summary;
  Verdict both = EvaluatePeers(k, Own(Runs(12.0, 0.03, 20, {16.5, 16.0})), sib, cfg);
  EXPECT_EQ(both.kind, VerdictKind::kPeerOutlier) << both.summary;
  // A throughput's windows are judged by their mean: 20% and 60% below.
  Verdict mean = EvaluatePeers(kKey, OwnAfter({160, 80}), FiveSiblings(), cfg);
  EXPECT_EQ(mean.kind, VerdictKind::kPeerOutlier) << mean.summary;
}

// A unit that has always stood 7% behind its siblings (units of a model
// differ) is judged against where it usually stands: 12% behind on a pair is
// 5% beyond its usual, not an outlier. A drive that has always been 20%
// behind (a slower model mixed in) is one: its standing is beyond the floor.
// And a drive usually in line that falls 20% behind is one too.
TEST(PeerDetector, UsualStandingWithinTheFloorIsDiscounted) {
  DetectionConfig cfg;
  const std::vector<PeerHistory> sib = {Peer("a", Runs(200, 0.01, 20, {200, 200})),
                                        Peer("b", Runs(202, 0.01, 20, {202, 202}))};
  Verdict usual = EvaluatePeers(kKey, Own(Runs(187, 0.01, 20, {177, 178})), sib, cfg);
  EXPECT_NE(usual.kind, VerdictKind::kPeerOutlier) << usual.summary;
  ASSERT_TRUE(usual.details.contains("usual_deviation_percent")) << usual.details.dump();
  EXPECT_NEAR(usual.details["usual_deviation_percent"].get<double>(), 7.4, 1);
  // Without a usual standing (too few judged windows before the pair), the
  // same pair is judged against the siblings alone and is an outlier.
  const std::vector<PeerHistory> recent = {Peer("a", {200, 200}, 20 * kWeek + 1800),
                                           Peer("b", {202, 202}, 20 * kWeek + 1800)};
  EXPECT_EQ(EvaluatePeers(kKey, Own(Runs(187, 0.01, 20, {177, 178})), recent, cfg).kind,
            VerdictKind::kPeerOutlier);
  Verdict born = EvaluatePeers(kKey, Own(Runs(160, 0.01, 20, {160, 159})), sib, cfg);
  EXPECT_EQ(born.kind, VerdictKind::kPeerOutlier) << born.summary;
  Verdict fell = EvaluatePeers(kKey, Own(Runs(200, 0.01, 20, {160, 159})), sib, cfg);
  EXPECT_EQ(fell.kind, VerdictKind::kPeerOutlier) << fell.summary;
  // Always 20% behind: its standing is what flags it, and the alert says so.
  EXPECT_NE(born.summary.find("it usually stands 2"), std::string::npos) << born.summary;
  // A drive usually 5% behind that falls 25% behind: an outlier, and the
  // alert says where it usually stands.
  Verdict lagging = EvaluatePeers(kKey, Own(Runs(191, 0.01, 20, {150, 151})), sib, cfg);
  EXPECT_EQ(lagging.kind, VerdictKind::kPeerOutlier) << lagging.summary;
  EXPECT_NE(lagging.summary.find("it usually stands 5% below them"), std::string::npos)
      << lagging.summary;
}

// A drive steadily 17% behind three siblings at 3% noise: one window's
// band (three siblings' median against the series' noise) is about as wide
// as its lag, so the pair rule alone left it a doubt for good; it has stood
// beyond the floor in every window, and that flags it. A unit 8% behind,
// inside the floor, is never flagged however long it stands there.
TEST(PeerDetector, ADriveThatStandsBeyondTheFloorIsFlaggedWhateverOneWindowsBand) {
  DetectionConfig cfg;
  const std::vector<PeerHistory> sib = {Peer("a", Runs(200, 0.03, 12, {200, 200})),
                                        Peer("b", Runs(204, 0.03, 12, {204, 204})),
                                        Peer("c", Runs(197, 0.03, 12, {197, 197}))};
  Verdict slow = EvaluatePeers(kKey, Own(Runs(166, 0.03, 12, {168, 165})), sib, cfg);
  EXPECT_EQ(slow.kind, VerdictKind::kPeerOutlier) << slow.summary;
  EXPECT_NE(slow.summary.find("usually stands"), std::string::npos) << slow.summary;
  // One window back in line: no longer both of the latest two.
  Verdict back = EvaluatePeers(kKey, Own(Runs(166, 0.03, 12, {168, 199})), sib, cfg);
  EXPECT_NE(back.kind, VerdictKind::kPeerOutlier) << back.summary;
  Verdict unit = EvaluatePeers(kKey, Own(Runs(184, 0.03, 12, {184, 183})), sib, cfg);
  EXPECT_NE(unit.kind, VerdictKind::kPeerOutlier) << unit.summary;
}

// Values that are not positive finite numbers are never evidence, on
// either side; duplicate run ids and a single run give a clear verdict,
// never a crash or an alert.
TEST(PeerDetector, BadValuesAreNeverEvidence) {
  DetectionConfig cfg;
  const double nan = std::nan(""), inf = INFINITY;
  // Siblings whose window holds only bad values: too few siblings.
  std::vector<PeerHistory> bad = {Peer("a", Runs(200, 0.01, 20, {nan, inf})),
                                  Peer("b", Runs(200, 0.01, 20, {0, -5}))};
  Verdict v = EvaluatePeers(kKey, Own(Runs(200, 0.01, 20, {150, 150})), bad, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kInconclusive) << v.summary;
  // The drive's own latest run bad: not evidence.
  for (double x : {nan, inf, 0.0, -1.0}) {
    Verdict own = EvaluatePeers(kKey, Own(Runs(200, 0.01, 20, {150, x})), FiveSiblings(), cfg);
    EXPECT_EQ(own.kind, VerdictKind::kInconclusive) << own.summary;
  }
  // Bad runs scattered through every history: judged on the good ones.
  auto scattered = [&](double level) {
    std::vector<double> r = Runs(level, 0.01, 20, {level, level});
    r[3] = nan;
    r[7] = 0;
    r[11] = -3;
    r[15] = inf;
    return r;
  };
  const std::vector<PeerHistory> mixed = {Peer("a", scattered(200)), Peer("b", scattered(201))};
  Verdict clear = EvaluatePeers(kKey, Own(scattered(199)), mixed, cfg);
  EXPECT_EQ(clear.kind, VerdictKind::kClear) << clear.summary;
  // Duplicate run ids and a single run: a verdict, no alert.
  // One run 25% behind, stored twice, is one window, not two.
  auto dup = OwnAfter({200, 150});
  dup.push_back(dup.back());
  Verdict once = EvaluatePeers(kKey, dup, FiveSiblings(), cfg);
  EXPECT_EQ(once.kind, VerdictKind::kNeedsConfirmation) << once.summary;
  Verdict single = EvaluatePeers(kKey, Own({150}), FiveSiblings(), cfg);
  EXPECT_NE(single.kind, VerdictKind::kPeerOutlier) << single.summary;
}

TEST(PeerDetector, SelfInSiblingListIsIgnored) {
  DetectionConfig cfg;
  auto sib = FiveSiblings();
  sib.push_back(Peer(kKey.drive_id, Runs(200, 0.01, 6, {160, 158}), 0));
  Verdict v = EvaluatePeers(kKey, OwnAfter({160, 158}), sib, cfg);
  EXPECT_EQ(v.details["siblings"].size(), 5u);
}

}  // namespace
}  // namespace dp::detect

namespace dp::detect {
namespace {

// A series' standing in the latest two windows, `z` sds (and `excess` log
// units) worse than its siblings, with usual windows 1..n whose scores are
// `usual(run)`.
PeerStanding Standing(double z, double excess, int n, double (*usual)(int, int), int series) {
  PeerStanding s;
  s.judged = true;
  s.z = s.before_z = z;
  s.excess = s.before_excess = excess;
  for (int run = 1; run <= n; ++run) s.usual_z[run] = usual(run, series);
  return s;
}

const double kShape[] = {1, -1, 0.5, -0.5, 1.5, -1.5, 0.2, -0.2};
// Usual windows whose series scatter by a run's noise each without moving
// together (every other series the other way): their mean barely moves, so
// the sd is the independent series' 1/sqrt(m), never less.
double Independent(int run, int series) { return kShape[run % 8] * (series % 2 ? 1 : -1); }
// Usual windows in which every series moves with the others.
double Together(int run, int) { return kShape[run % 8]; }

TEST(JointPeerRule, SeriesEachInsideTheirBandsAreAnOutlierTogether) {
  DetectionConfig cfg;
  // Five strokes, each 2.8 sds and 18% worse in two windows: each alone is
  // short of the pair rule's 4.97 sds for a mean of two (2.8 sqrt 2 = 4.0).
  std::vector<PeerStanding> strokes;
  for (int k = 0; k < 5; ++k) strokes.push_back(Standing(2.8, 0.18, 8, Independent, k));
  const JointPeerResult r = JointPeerRule(strokes, cfg);
  EXPECT_TRUE(r.outlier);
  EXPECT_EQ(r.series, 5);
  EXPECT_NEAR(r.sd, 1 / std::sqrt(5.0), 1e-9);
  EXPECT_NEAR(r.t, 2.8 * std::sqrt(5.0), 1e-9);
  // One series is the per-series rule's, not the joint one's.
  EXPECT_FALSE(JointPeerRule({strokes.front()}, cfg).outlier);
}

TEST(JointPeerRule, SeriesThatMoveTogetherCountAsOne) {
  DetectionConfig cfg;
  // The same five strokes, whose usual windows show them moving together:
  // the mean score's sd is read from those windows, not 1/sqrt(5).
  std::vector<PeerStanding> strokes;
  for (int k = 0; k < 5; ++k) strokes.push_back(Standing(2.8, 0.18, 8, Together, k));
  const JointPeerResult r = JointPeerRule(strokes, cfg);
  EXPECT_FALSE(r.outlier) << r.t << " sds";
  EXPECT_GT(r.sd, 0.9);
}

TEST(JointPeerRule, NeedsTheFloorTheUsualWindowsAndTheOwnChangeOfAPair) {
  DetectionConfig cfg;
  std::vector<PeerStanding> strokes;
  for (int k = 0; k < 5; ++k) strokes.push_back(Standing(2.8, 0.18, 8, Independent, k));
  // 7% worse on average: within the floor (peer_min_percent), not failing.
  std::vector<PeerStanding> near = strokes;
  for (PeerStanding& s : near) s.excess = s.before_excess = 0.07;
  EXPECT_FALSE(JointPeerRule(near, cfg).outlier);
  // Too few usual windows to know how the series move together.
  std::vector<PeerStanding> young;
  for (int k = 0; k < 5; ++k) young.push_back(Standing(2.8, 0.18, 3, Independent, k));
  EXPECT_FALSE(JointPeerRule(young, cfg).outlier);
  // Only one of the two windows.
  std::vector<PeerStanding> once = strokes;
  for (PeerStanding& s : once) s.before_z = 0.5;
  EXPECT_FALSE(JointPeerRule(once, cfg).outlier);
  // A pair: the drive's own change must agree (either side could have moved).
  EXPECT_FALSE(JointPeerRule(strokes, cfg, cfg.band_sigmas).outlier);
  for (PeerStanding& s : strokes) s.own_z = 1.5;
  EXPECT_TRUE(JointPeerRule(strokes, cfg, cfg.band_sigmas).outlier);
}

}  // namespace
}  // namespace dp::detect
