#include "detect/change_detector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "detect/baseline.h"
#include "detect/student_t.h"

namespace dp::detect {
namespace {

constexpr std::int64_t kWeek = 7 * 86400;

SeriesKey Key(const std::string& metric = "mb_per_s") {
  return SeriesKey{"wwn-1", "sda", "seq", "qd8-1m", metric};
}

std::vector<Sample> Series(const std::vector<double>& values) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         1'767'225'600 + static_cast<std::int64_t>(i) * kWeek, values[i]});
  return out;
}

// Appends a good run `after` seconds after the last one.
void Append(std::vector<Sample>& h, double value, std::int64_t after = kWeek) {
  h.push_back(Sample{h.back().run_id + 1, h.back().at + after, value});
}

// median 200, MAD 1; on the log scale the centre is the geometric mean
// (200.398) and the CV 1.22%. The single-run band is set by its floor, 6%
// (the Student-t part, t4 at the 2.25-sigma quantile x 1.22% x sqrt(1.2), is
// 4.7%); the pair band by its Student-t part, t4 at the 4.5-sigma quantile x
// 1.22% x sqrt(0.825), far beyond its 10% floor: five runs say
// little about a spread, so a 16% drop waits for the CUSUM (~4 runs) and only
// a drop beyond ~32% is seen by the pair at once.
const std::vector<double> kBase = {200, 204, 198, 201, 199};
const double kCenter = std::exp((std::log(200.0) + std::log(204.0) + std::log(198.0) +
                                 std::log(201.0) + std::log(199.0)) / 5);
const double kBandLow = kCenter * 0.94;

TEST(ChangeDetector, BaseliningUntilEnoughGoodRuns) {
  DetectionConfig cfg;
  Verdict v = EvaluateChange(Key(), Series({200, 201, 199}), cfg);
  EXPECT_EQ(v.kind, VerdictKind::kBaselining);
  EXPECT_EQ(v.baseline_runs, 3);
  EXPECT_NE(v.summary.find("3 of 5"), std::string::npos) << v.summary;
  // The fifth baseline run itself is not judged.
  EXPECT_EQ(EvaluateChange(Key(), Series(kBase), cfg).kind, VerdictKind::kBaselining);
  EXPECT_FALSE(v.Firing());
}

TEST(ChangeDetector, InBandIsClearWithEvidence) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  h.push_back(Sample{6, h.back().at + kWeek, 190});
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kClear) << v.summary;
  EXPECT_EQ(v.condition, "slowdown:seq:qd8-1m:mb_per_s");
  ASSERT_TRUE(v.baseline_median && v.band_low && v.band_high);
  EXPECT_DOUBLE_EQ(*v.baseline_median, 200);
  EXPECT_DOUBLE_EQ(*v.baseline_mad, 1);
  EXPECT_NEAR(*v.band_low, kBandLow, 1e-9);
  EXPECT_NEAR(*v.band_high, kCenter * 1.06, 1e-9);
  EXPECT_NEAR(v.details["baseline_mean"].get<double>(), kCenter, 1e-9);
  EXPECT_NEAR(v.details["noise_percent"].get<double>(), 1.22, 0.01);
  // What the series can tell apart at its noise, from five runs: the CUSUM's
  // runs, not the pair's. Every run of the drop scores the cap (4, less k =
  // 1), so the CUSUM is over h = 8 at the third run, and the alert opens on
  // its re-test: 4.
  EXPECT_EQ(v.details["detectable"]["runs"], 4);
  EXPECT_NE(v.summary.find("noise CV 1.2%: a 15% drop is seen within ~4 runs"), std::string::npos)
      << v.summary;
  // Twenty runs of the same spread: the pair sees it, within 2.
  std::vector<double> longer;
  for (int i = 0; i < 4; ++i) longer.insert(longer.end(), kBase.begin(), kBase.end());
  auto l = Series(longer);
  Append(l, 190);
  Verdict settled = EvaluateChange(Key(), l, cfg);
  EXPECT_EQ(settled.kind, VerdictKind::kClear) << settled.summary;
  EXPECT_EQ(settled.details["detectable"]["runs"], 2) << settled.summary;
}

TEST(ChangeDetector, OneRunOutsideNeedsConfirmationTwoConsecutiveIsSlowdown) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  h.push_back(Sample{6, h.back().at + kWeek, 120});
  Verdict first = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(first.kind, VerdictKind::kNeedsConfirmation) << first.summary;
  EXPECT_FALSE(first.Firing());
  EXPECT_NEAR(*first.change_percent, 100 * (1 - 120 / kCenter), 1e-9);

  h.push_back(Sample{7, h.back().at + 3600, 118});  // the confirmation re-test
  Verdict second = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(second.kind, VerdictKind::kSlowdown) << second.summary;
  EXPECT_TRUE(second.Firing());
  EXPECT_EQ(second.severity, Severity::kWarning);
  ASSERT_GE(second.runs.size(), 2u);
  EXPECT_EQ(second.runs.back().run_id, 7);
  EXPECT_TRUE(second.runs.back().outside);
  EXPECT_TRUE(second.runs[second.runs.size() - 2].outside);
  EXPECT_NE(second.summary.find("dropped 41%"), std::string::npos) << second.summary;
  EXPECT_NE(second.summary.find("baseline 200 MB/s"), std::string::npos) << second.summary;
}

// The decision is typed before any sentence is made: the pair rule's figures
// are fields, the summary is empty until ChangeSentence writes it, and
// EvaluateChange is exactly the two together.
TEST(ChangeDetector, DecisionCarriesTheRuleAndItsFiguresWithoutASentence) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  h.push_back(Sample{6, h.back().at + kWeek, 120});
  h.push_back(Sample{7, h.back().at + 3600, 118});
  const ChangeDecision d = DecideChange(Key(), h, cfg);
  EXPECT_EQ(d.verdict.kind, VerdictKind::kSlowdown);
  EXPECT_EQ(d.verdict.rule, Verdict::Rule::kPair);
  EXPECT_TRUE(d.verdict.summary.empty());
  EXPECT_DOUBLE_EQ(d.previous_value, 120);
  EXPECT_NEAR(d.pair_mean, std::sqrt(120.0 * 118.0), 1e-9);
  EXPECT_LT(d.pair_mean, d.pair_limit);  // a drop passes the pair band's low limit
  EXPECT_NEAR(d.baseline_center, kCenter, 1e-9);
  EXPECT_EQ(d.baseline_runs, 5);
  EXPECT_EQ(d.segment_runs, 0u);  // the CUSUM's figures are not this rule's
  const Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.summary, ChangeSentence(Key(), d));
  EXPECT_NE(v.summary.find("120 and 118 MB/s in two consecutive runs"), std::string::npos)
      << v.summary;

  // A run that is not evidence names itself and why, as fields.
  h.push_back(Sample{8, h.back().at + kWeek, 180});
  h.back().contended = true;
  const ChangeDecision skipped = DecideChange(Key(), h, cfg);
  EXPECT_EQ(skipped.verdict.kind, VerdictKind::kInconclusive);
  EXPECT_EQ(skipped.not_evidence_run, 8);
  EXPECT_EQ(skipped.not_evidence_because, "contended");
}

// Both runs just below the band but their mean within the pair band: two
// unlucky runs, not a slowdown; the latest still asks for a re-test.
TEST(ChangeDetector, TwoRunsOutsideButPairMeanInsideIsNotASlowdown) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  Append(h, 186);
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kNeedsConfirmation);
  Append(h, 182, 3600);
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kNeedsConfirmation) << v.summary;
  EXPECT_FALSE(v.Firing());
}

// The pair band's edge, on a baseline with no spread (the floors alone):
// single band 200 +- 12, pair band 200 +- 20; strictly beyond is outside.
TEST(ChangeDetector, PairMeanBoundary) {
  DetectionConfig cfg;
  const auto flat = Series({200, 200, 200, 200, 200});
  auto judge = [&](double x1, double x2) {
    auto h = flat;
    Append(h, x1);
    Append(h, x2, 3600);
    return EvaluateChange(Key(), h, cfg);
  };
  // The pair mean is geometric (the mean of the logs).
  Verdict at = judge(181, 179.1);  // mean 180.05: inside
  EXPECT_EQ(at.kind, VerdictKind::kNeedsConfirmation) << at.summary;
  EXPECT_NEAR(*at.band_low, 188, 1e-9);
  Verdict beyond = judge(181, 178.9);  // mean 179.95
  EXPECT_EQ(beyond.kind, VerdictKind::kSlowdown) << beyond.summary;
  EXPECT_NEAR(beyond.details["pair_low"].get<double>(), 180, 1e-9);
  // Each run must be outside the single-run band too: 188 is on its edge.
  EXPECT_EQ(judge(188, 150).kind, VerdictKind::kNeedsConfirmation);
  EXPECT_EQ(judge(187.9, 150).kind, VerdictKind::kSlowdown);
  // Latency, the mirror image; a p99 is heavy-tailed, so each of the two
  // runs must be beyond the pair band (1100), not only their mean.
  const auto lat = Series({1000, 1000, 1000, 1000, 1000});
  auto h = lat;
  Append(h, 1099);
  Append(h, 1110, 3600);  // mean 1104.5
  EXPECT_EQ(EvaluateChange(Key("p99_us"), h, cfg).kind, VerdictKind::kNeedsConfirmation);
  h[h.size() - 2].value = 1100.5;
  const Verdict both = EvaluateChange(Key("p99_us"), h, cfg);
  EXPECT_EQ(both.kind, VerdictKind::kSlowdown) << both.summary;
  EXPECT_NEAR(both.details["pair_high"].get<double>(), 1100, 1e-9);
  EXPECT_NE(both.summary.find("both above 1100"), std::string::npos) << both.summary;
}

// A p99 is heavy-tailed: one wild run carries a pair's mean past any band,
// so its pair rule asks each run to be beyond the pair band (baseline.h,
// "Pair rule for heavy tails"). Traced in the field model at 5% noise: a
// mature p99 baseline, a run 18% up (just outside the single band) and on
// its re-test 175% up; their mean was beyond the pair band and alerted.
TEST(ChangeDetector, OneWildP99RunDoesNotMakeAPair) {
  DetectionConfig cfg;
  std::vector<double> base;
  for (int i = 0; i < 30; ++i) base.push_back(25000 * std::exp(0.05 * (-1.5 + 0.5 * (i % 7))));
  auto h = Series(base);
  Append(h, 25000 * 1.18);
  Append(h, 25000 * 2.75, 6 * 3600);
  const Verdict wild = EvaluateChange(Key("p99_us"), h, cfg);
  EXPECT_NE(wild.kind, VerdictKind::kSlowdown) << wild.summary;
  // Both runs 1.5x up (8 sigmas each) is a pair: with the mean rule it
  // needed about 9 sigmas of the two runs' mean and was not one.
  h[h.size() - 2].value = 25000 * 1.5;
  h.back().value = 25000 * 1.5;
  const Verdict rise = EvaluateChange(Key("p99_us"), h, cfg);
  EXPECT_EQ(rise.kind, VerdictKind::kSlowdown) << rise.summary;
  EXPECT_EQ(rise.details["rule"], "two consecutive good runs, each outside the pair band");
  const Baseline b = ComputeBaseline(h, h.size() - 2, cfg, 0, Direction::kLowerIsBetter,
                                     TailDfOf("p99_us"));
  EXPECT_LT(PairBandOf(b, cfg).high, 25000 * 1.5);
  EXPECT_GT(PairBandOf(b, cfg).high, BandOf(b, cfg).high);
}

// One run far out, however far, is never an alert on its own.
TEST(ChangeDetector, SingleOutlierIsNotAnAlert) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  Append(h, 20);
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kNeedsConfirmation);
  Append(h, 199, 3600);
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kClear) << v.summary;
  // ... and it does not enter the baseline.
  EXPECT_NEAR(*v.baseline_median, 200, 1e-9);
  EXPECT_EQ(v.details["baseline_run_ids"].size(), 5u);
}

// A drive with 3% noise whose baseline has firmed up over 20 runs drops 15%:
// the first slow run asks for a re-test and the re-test confirms (run 2).
TEST(ChangeDetector, FifteenPercentDropIsAlertedAtItsSecondRun) {
  DetectionConfig cfg;
  // 200 MB/s +- 3%: a fixed pattern of deviations in sigmas (mean 0, sd ~1).
  const double z[] = {0.3,  -1.2, 0.8,  -0.4, 1.5,  -0.9, 0.1,  0.6, -1.6, 1.1,
                      -0.2, 0.4,  -0.7, 1.9,  -1.1, 0.2,  -0.5, 0.9, -1.4, 0.2};
  std::vector<double> values;
  for (double d : z) values.push_back(200 * (1 + 0.03 * d));
  auto h = Series(values);
  h.push_back(Sample{21, h.back().at + kWeek, 200 * 0.85 * (1 + 0.03 * 0.7)});  // 173.6
  Verdict first = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(first.kind, VerdictKind::kNeedsConfirmation) << first.summary;
  EXPECT_EQ(*first.baseline_runs, 20);
  h.push_back(Sample{22, h.back().at + 3600, 200 * 0.85 * (1 - 0.03 * 0.4)});  // 168.0
  Verdict second = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(second.kind, VerdictKind::kSlowdown) << second.summary;
  EXPECT_EQ(*second.baseline_runs, 20);
  ASSERT_EQ(second.runs.size(), 2u);
  EXPECT_TRUE(second.runs[0].outside && second.runs[1].outside);
  // The drop stays out of the baseline while it lasts.
  Append(h, 171);
  Append(h, 169, 3600);
  Verdict later = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(later.kind, VerdictKind::kSlowdown) << later.summary;
  EXPECT_EQ(*later.baseline_runs, 20);
}

// A good run between a contended or partial one does not break the pair:
// consecutive means consecutive good runs.
TEST(ChangeDetector, NotGoodRunsBetweenThePairAreSkipped) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  h.push_back(Sample{6, h.back().at + kWeek, 120});
  Sample c{7, h.back().at + 600, 260};  // contended (and fast): no evidence
  c.contended = true;
  h.push_back(c);
  h.push_back(Sample{8, h.back().at + 3600, 118});
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kSlowdown) << v.summary;
  for (const auto& r : v.runs) EXPECT_NE(r.run_id, 7);
}

TEST(ChangeDetector, OutsideThenInsideThenOutsideIsNotConfirmed) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  for (double x : {170.0, 199.0, 170.0})
    h.push_back(Sample{h.back().run_id + 1, h.back().at + kWeek, x});
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kNeedsConfirmation);
}

TEST(ChangeDetector, FasterIsNotASlowdown) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  h.push_back(Sample{6, h.back().at + kWeek, 260});
  h.push_back(Sample{7, h.back().at + kWeek, 260});
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kClear);
}

TEST(ChangeDetector, LatencyRiseIsWorse) {
  DetectionConfig cfg;
  auto h = Series({1000, 1010, 990, 1005, 995});  // p99 in us
  h.push_back(Sample{6, h.back().at + kWeek, 1500});
  h.push_back(Sample{7, h.back().at + 3600, 1480});
  Verdict v = EvaluateChange(Key("p99_us"), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kSlowdown) << v.summary;
  EXPECT_NE(v.summary.find("p99 latency rose"), std::string::npos) << v.summary;
  // A latency drop is good news.
  auto g = Series({1000, 1010, 990, 1005, 995, 500, 500});
  EXPECT_EQ(EvaluateChange(Key("p99_us"), g, cfg).kind, VerdictKind::kClear);
}

// Critical (notified at once, not watched for housekeeping) is the same
// harm for every figure: a rate halved, a mean access time doubled; a p99
// only when it quadruples, since housekeeping alone makes it 1.5-2x.
TEST(ChangeDetector, CriticalIsARateHalvedATimeDoubledAP99Quadrupled) {
  DetectionConfig cfg;
  auto judge = [&](const std::string& metric, double base, double value) {
    auto h = Series({base, base * 1.01, base * 0.99, base * 1.005, base * 0.995});
    h.push_back(Sample{6, h.back().at + kWeek, value});
    h.push_back(Sample{7, h.back().at + 3600, value});
    Verdict v = EvaluateChange(Key(metric), h, cfg);
    EXPECT_EQ(v.kind, VerdictKind::kSlowdown) << metric << ": " << v.summary;
    return v.severity;
  };
  EXPECT_EQ(judge("mb_per_s", 200, 110), Severity::kWarning);
  EXPECT_EQ(judge("mb_per_s", 200, 95), Severity::kCritical);
  EXPECT_EQ(judge("iops", 200, 95), Severity::kCritical);
  EXPECT_EQ(judge("access_ms", 10, 17), Severity::kWarning);
  EXPECT_EQ(judge("access_ms", 10, 21), Severity::kCritical);
  EXPECT_EQ(judge("p99_us", 25000, 45000), Severity::kWarning);  // housekeeping's 1.8x
  EXPECT_EQ(judge("p99_us", 25000, 105000), Severity::kCritical);
  EXPECT_EQ(CriticalWorsePercent("mb_per_s"), 50);
  EXPECT_EQ(CriticalWorsePercent("access_ms"), 100);
  EXPECT_EQ(CriticalWorsePercent("p99_us"), 300);
}

TEST(ChangeDetector, ContendedPartialFailedRunsAreNeverEvidence) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  Sample c{6, h.back().at + kWeek, 100};
  c.contended = true;
  h.push_back(c);
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kInconclusive);
  EXPECT_EQ(v.details["reason"], "contended");

  // A slow good run, then a slow contended one, then a slow partial one: the
  // slow contended/partial runs cannot confirm.
  h.push_back(Sample{7, h.back().at + kWeek, 170});
  Sample p{8, h.back().at + 3600, 150};
  p.partial = true;
  h.push_back(p);
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kInconclusive);
  h.pop_back();
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kNeedsConfirmation);

  // Contended runs do not enter the baseline either.
  auto b = Series({200, 100, 201, 199, 202, 198, 200});
  b[1].contended = true;
  Verdict w = EvaluateChange(Key(), b, cfg);
  EXPECT_EQ(w.kind, VerdictKind::kClear);
  EXPECT_DOUBLE_EQ(*w.baseline_median, 200);
  Sample f{99, b.back().at + 10, 1};
  f.failed = true;
  b.push_back(f);
  EXPECT_EQ(EvaluateChange(Key(), b, cfg).kind, VerdictKind::kInconclusive);
}

TEST(ChangeDetector, RebaselineIgnoresOlderRuns) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  std::int64_t t = h.back().at;
  // After a firmware update the drive settles at 170 MB/s.
  for (int i = 0; i < 6; ++i) h.push_back(Sample{10 + i, t + (i + 1) * kWeek, 170.0 + (i % 2)});
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kSlowdown);
  Verdict v = EvaluateChange(Key(), h, cfg, /*baseline_since=*/t + 1);
  EXPECT_EQ(v.kind, VerdictKind::kClear) << v.summary;
  EXPECT_NEAR(*v.baseline_median, 170, 1);
}

// A segment that opened one run before a real drop holds a level shift: the
// spread check that folds a too-wide segment into the baseline must not take
// that shift for scatter, or the drop would become its own reference.
TEST(ChangeDetector, DropRightAfterAMarginalRunIsStillAlerted) {
  DetectionConfig cfg;
  const double wobble[] = {1.0, 1.01, 0.99, 1.005, 0.995, 1.0, 1.008, 0.992, 1.002, 0.998};
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(200 * wobble[i % 10]);
  v.push_back(193);  // a little worse: opens a CUSUM segment
  v.push_back(170);  // the drop and its re-test
  v.push_back(169);
  Verdict verdict = EvaluateChange(Key(), Series(v), cfg);
  EXPECT_EQ(verdict.kind, VerdictKind::kSlowdown) << verdict.summary;
  EXPECT_EQ(verdict.baseline_runs, 20);
}

TEST(ChangeDetector, UnsortedInputIsSorted) {
  DetectionConfig cfg;
  auto h = Series({200, 201, 199, 200, 202, 160, 160});
  std::reverse(h.begin(), h.end());
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kSlowdown);
}

TEST(ChangeDetector, VerdictJsonCarriesEvidence) {
  DetectionConfig cfg;
  Verdict v = EvaluateChange(Key(), Series({200, 204, 198, 201, 199, 120, 118}), cfg);
  nlohmann::json j = VerdictToJson(v);
  EXPECT_EQ(j["kind"], "slowdown");
  EXPECT_EQ(j["firing"], true);
  EXPECT_EQ(j["baseline"]["median"], 200.0);
  EXPECT_EQ(j["baseline"]["runs"], 5);
  EXPECT_NEAR(j["band"]["low"].get<double>(), kBandLow, 1e-9);
  EXPECT_NEAR(j["details"]["pair_mean"].get<double>(), std::sqrt(120.0 * 118), 1e-9);
  double m = 0, ss = 0;
  for (double x : kBase) m += std::log(x) / 5;
  for (double x : kBase) ss += (std::log(x) - m) * (std::log(x) - m);
  const double sigma = std::sqrt(ss / 4) / (1 - 1.0 / 20 - 7.0 / 800);
  const double t_part = StudentTQuantile(NormalCdf(cfg.confirm_sigmas), 4) * sigma * std::sqrt(kPairMeanVariance + 0.2);
  EXPECT_GT(t_part, -std::log(0.9));
  EXPECT_NEAR(j["details"]["pair_low"].get<double>(), kCenter * std::exp(-t_part), 1e-9);
  EXPECT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["details"]["baseline_run_ids"].size(), 5u);
  EXPECT_EQ(j["unit"], "MB/s");
}

// Interference that outlasted a re-test (two runs 30% down), then the next
// scheduled run 11% down and its re-test back at 4%: the CUSUM of the capped
// scores is past its decision interval and the last three runs' median is
// 11%, but the run that would open the alert and the one before it average
// 7.5%, under the pair floor: not a slowdown.
TEST(ChangeDetector, CusumNeedsItsLastTwoRunsBeyondTheFloor) {
  DetectionConfig cfg;
  std::vector<double> base;
  for (int i = 0; i < 4; ++i)
    for (double x : {200.0, 206.0, 194.0, 203.0, 197.0}) base.push_back(x);
  auto h = Series(base);
  const double center = 200;
  Append(h, center * 0.70);
  Append(h, center * 0.70, 6 * 3600);
  Append(h, center * 0.89);
  const Verdict third = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(third.kind, VerdictKind::kSlowdown) << third.summary;
  Append(h, center * 0.96, 6 * 3600);
  const Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_GE(v.details["cusum"].get<double>(), cfg.cusum_h) << v.summary;
  EXPECT_EQ(v.kind, VerdictKind::kClear) << v.summary;
  // Still 11% down at the re-test: the drop is there now, and it is alerted.
  h.back().value = center * 0.88;
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kSlowdown);
}

// A young baseline's centre is itself uncertain: with a noisy read path
// (pooled spread 8%) five runs fix it only to about 3.6%. A segment 20-25%
// below it whose scores sum past the CUSUM's interval is still within what
// that uncertainty and the segment's own explain (4.5 standard errors of the
// shift: 4.5 x 8% x sqrt(1/5 + pi/(2m)), 23% at m = 7; its median is 20%),
// so it is not an alert; the same segment after a 60-run baseline (4.5 x 8% x
// sqrt(1/60 + pi/14), 17.6%) is.
TEST(ChangeDetector, CusumOnAYoungBaselineNeedsAShiftBeyondItsCentresUncertainty) {
  DetectionConfig cfg;
  const SpreadPrior family{0.08, 60, 3};
  auto segment_after = [&](std::vector<double> base) {
    auto h = Series(base);
    for (int i = 0; i < 7; ++i) Append(h, i % 2 ? 78.0 : 82.0);
    return EvaluateChange(Key(), h, cfg, 0, family);
  };
  const Verdict young = segment_after({100, 108, 92, 104, 96});
  EXPECT_EQ(young.baseline_runs, 5);
  EXPECT_GE(young.details["cusum"].get<double>(), cfg.cusum_h) << young.summary;
  EXPECT_NE(young.kind, VerdictKind::kSlowdown) << young.summary;
  std::vector<double> long_base;
  for (int i = 0; i < 12; ++i)
    for (double x : {100.0, 108.0, 92.0, 104.0, 96.0}) long_base.push_back(x);
  const Verdict established = segment_after(long_base);
  EXPECT_EQ(established.baseline_runs, 60);
  EXPECT_EQ(established.kind, VerdictKind::kSlowdown) << established.summary;
  EXPECT_NE(established.summary.find("CUSUM"), std::string::npos) << established.summary;
}


// "A 15% drop is seen within ~N runs" is a promise: at the noise where only
// the CUSUM sees the drop, it must hold for most drops, or the page and the
// verdict overstate what the series can tell. Seeded drops on baselines at
// 6-9% noise (each run's re-test taken when the verdict asks for one, as the
// daemon does), judged by the detector itself: of the trials where the
// first changed run promised N runs, most alerted within N. Before the
// promise counted the floors the CUSUM's alert also needs and the runs that
// join the baseline while it waits, it was kept for about 3 drops in 4 here.
TEST(ChangeDetector, TheRunsPromisedAtHighNoiseAreMostlyKept) {
  DetectionConfig cfg;
  std::mt19937_64 rng(20261203);
  std::normal_distribution<double> unit(0, 1);
  int promised = 0, kept = 0, silent = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const double noise = 0.06 + 0.01 * (trial % 4);
    const int runs = 10 + trial % 11;
    std::vector<double> base;
    for (int i = 0; i < runs; ++i) base.push_back(200 * std::exp(noise * unit(rng)));
    auto h = Series(base);
    int promise = -1, used = 0;
    bool alerted = false;
    for (int week = 0; week < 40 && !alerted; ++week) {
      Append(h, 170 * std::exp(noise * unit(rng)));
      ++used;
      Verdict v = EvaluateChange(Key(), h, cfg);
      if (promise < 0) promise = v.details["detectable"]["runs"].get<int>();
      if (v.kind == VerdictKind::kNeedsConfirmation) {
        Append(h, 170 * std::exp(noise * unit(rng)), 6 * 3600);
        ++used;
        v = EvaluateChange(Key(), h, cfg);
      }
      alerted = v.kind == VerdictKind::kSlowdown;
      if (promise > 0 && used >= promise) break;
    }
    if (promise <= 0) {
      ++silent;
      continue;
    }
    ++promised;
    if (alerted && used <= promise) ++kept;
  }
  if (std::getenv("DP_TEST_VERBOSE"))
    std::fprintf(stderr, "promised %d, kept %d, none promised %d\n", promised, kept, silent);
  // Enough promises that the figure means something, and most of them kept:
  // 48 of 63 here (the rest were drops that a segment closing early or a
  // tight start's spread test folded into the baseline, or whose waiting runs
  // widened the spread). Before the promise counted what the CUSUM's alert
  // needs, 204 trials were promised a figure and 102 kept it.
  EXPECT_GE(promised, 40);
  EXPECT_GE(kept, promised * 3 / 4) << kept << " of " << promised;
}

}  // namespace
}  // namespace dp::detect
