#include "detect/change_detector.h"

#include <gtest/gtest.h>

#include <algorithm>

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

const std::vector<double> kBase = {200, 204, 198, 201, 199};  // median 200, MAD 1

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
  // Half-width: max(k * 1.4826 * MAD * small-sample factors (~6), 8% of 200) = 16.
  EXPECT_DOUBLE_EQ(*v.band_low, 184);
  EXPECT_DOUBLE_EQ(*v.band_high, 216);
}

TEST(ChangeDetector, OneRunOutsideNeedsConfirmationTwoConsecutiveIsSlowdown) {
  DetectionConfig cfg;
  auto h = Series(kBase);
  h.push_back(Sample{6, h.back().at + kWeek, 170});
  Verdict first = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(first.kind, VerdictKind::kNeedsConfirmation) << first.summary;
  EXPECT_FALSE(first.Firing());
  EXPECT_NEAR(*first.change_percent, 15, 1e-9);

  h.push_back(Sample{7, h.back().at + 3600, 168});  // the confirmation re-test
  Verdict second = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(second.kind, VerdictKind::kSlowdown) << second.summary;
  EXPECT_TRUE(second.Firing());
  EXPECT_EQ(second.severity, Severity::kWarning);
  ASSERT_GE(second.runs.size(), 2u);
  EXPECT_EQ(second.runs.back().run_id, 7);
  EXPECT_TRUE(second.runs.back().outside);
  EXPECT_TRUE(second.runs[second.runs.size() - 2].outside);
  EXPECT_NE(second.summary.find("dropped 16%"), std::string::npos) << second.summary;
  EXPECT_NE(second.summary.find("baseline 200 MB/s"), std::string::npos) << second.summary;
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

TEST(ChangeDetector, UnsortedInputIsSorted) {
  DetectionConfig cfg;
  auto h = Series({200, 201, 199, 200, 202, 170, 170});
  std::reverse(h.begin(), h.end());
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kSlowdown);
}

TEST(ChangeDetector, VerdictJsonCarriesEvidence) {
  DetectionConfig cfg;
  Verdict v = EvaluateChange(Key(), Series({200, 204, 198, 201, 199, 170, 168}), cfg);
  nlohmann::json j = VerdictToJson(v);
  EXPECT_EQ(j["kind"], "slowdown");
  EXPECT_EQ(j["firing"], true);
  EXPECT_EQ(j["baseline"]["median"], 200.0);
  EXPECT_EQ(j["baseline"]["runs"], 5);
  EXPECT_EQ(j["band"]["low"], 184.0);
  EXPECT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["details"]["baseline_run_ids"].size(), 5u);
  EXPECT_EQ(j["unit"], "MB/s");
}

}  // namespace
}  // namespace dp::detect
