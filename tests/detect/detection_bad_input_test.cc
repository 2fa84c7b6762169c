// The change and trend detectors on histories a real store or a broken tool
// can produce: every one gets a clear verdict (inconclusive or baselining),
// never a crash, never a division by zero, never an alert.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "detect/change_detector.h"
#include "detect/series.h"
#include "detect/trend_detector.h"

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;

SeriesKey Key(const std::string& metric = "mb_per_s") {
  return SeriesKey{"wwn-1", "sda", "seq", "qd8-1m", metric};
}

std::vector<Sample> Series(const std::vector<double>& values) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         kT0 + static_cast<std::int64_t>(i) * kWeek, values[i]});
  return out;
}

bool AnyFiring(const std::vector<Sample>& h, const std::string& metric = "mb_per_s") {
  DetectionConfig cfg;
  for (const auto& v : EvaluateSeries(Key(metric), h, cfg))
    if (v.Firing()) return true;
  return false;
}

TEST(DetectionBadInput, NotANumberZeroNegativeAndInfiniteAreNeverEvidence) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf, -inf, 0.0, -200.0}) {
    auto h = Series({200, 201, 199, 200, 202, 200});
    h.push_back(Sample{7, h.back().at + kWeek, bad});
    DetectionConfig cfg;
    Verdict v = EvaluateChange(Key(), h, cfg);
    EXPECT_EQ(v.kind, VerdictKind::kInconclusive) << bad;
    EXPECT_EQ(v.details["reason"], "not a positive number") << bad;
    // Twice in a row is still no evidence, and never an alert.
    h.push_back(Sample{8, h.back().at + 3600, bad});
    EXPECT_FALSE(AnyFiring(h)) << bad;
    // Bad values in the middle of a history are skipped.
    h.push_back(Sample{9, h.back().at + kWeek, 200});
    EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kClear) << bad;
  }
}

TEST(DetectionBadInput, AllBadHistoryIsBaselining) {
  DetectionConfig cfg;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto h = Series({nan, 0, -1, nan});
  h.push_back(Sample{5, h.back().at + kWeek, 200});
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kBaselining);
  EXPECT_NE(v.summary.find("1 of 5"), std::string::npos) << v.summary;
}

TEST(DetectionBadInput, SingleRunIsBaselining) {
  DetectionConfig cfg;
  EXPECT_EQ(EvaluateChange(Key(), Series({200}), cfg).kind, VerdictKind::kBaselining);
  EXPECT_EQ(EvaluateTrend(Key(), Series({200}), cfg).kind, VerdictKind::kBaselining);
  EXPECT_EQ(EvaluateChange(Key(), {}, cfg).kind, VerdictKind::kInconclusive);
}

// Identical values: zero spread. The floors set the bands; ordinary runs are
// clear, no score is infinite, a real drop is still seen.
TEST(DetectionBadInput, IdenticalBaselineHasNoZeroDivision) {
  DetectionConfig cfg;
  auto h = Series(std::vector<double>(12, 200));
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kClear) << v.summary;
  EXPECT_TRUE(std::isfinite(*v.band_low) && std::isfinite(*v.band_high));
  EXPECT_DOUBLE_EQ(v.details["noise_percent"].get<double>(), 0);
  h.push_back(Sample{13, h.back().at + kWeek, 199});
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kClear);
  EXPECT_TRUE(std::isfinite(EvaluateChange(Key(), h, cfg).details["cusum"].get<double>()));
  h.push_back(Sample{14, h.back().at + kWeek, 160});
  h.push_back(Sample{15, h.back().at + 3600, 160});
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kSlowdown);
  EXPECT_FALSE(EvaluateTrend(Key(), Series(std::vector<double>(30, 7)), cfg).Firing());
}

// The same run twice (an overlapping read) counts once: two copies of one
// slow run are not a confirmed pair.
TEST(DetectionBadInput, DuplicateRunIdsCountOnce) {
  DetectionConfig cfg;
  auto h = Series({200, 204, 198, 201, 199, 201});
  h.push_back(Sample{7, h.back().at + kWeek, 160});
  h.push_back(h.back());
  Verdict v = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kNeedsConfirmation) << v.summary;
}

// Timestamps out of order are sorted; a sample stamped in the future is just
// the latest; equal timestamps keep run-id order.
TEST(DetectionBadInput, TimestampsOutOfOrderOrInTheFuture) {
  DetectionConfig cfg;
  auto h = Series({200, 204, 198, 201, 199, 201, 200});
  std::swap(h[1].at, h[5].at);
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kClear);
  h.push_back(Sample{8, kT0 + 1000LL * 365 * 86400, 200});  // a thousand years on
  EXPECT_FALSE(AnyFiring(h));
  for (auto& s : h) s.at = kT0;  // every run at one second
  EXPECT_FALSE(AnyFiring(h));
  EXPECT_EQ(EvaluateTrend(Key(), h, cfg).kind, VerdictKind::kBaselining);
}

// A drop right after the baseline (its first judged run) is seen with the
// Student-t bands of a 5-run baseline: a 25% drop by the CUSUM at its third
// run (five runs cannot vouch for the pair's 4.5-sigma tail), a 40% drop by
// the pair within 2.
TEST(DetectionBadInput, DropAtTheFirstJudgedRun) {
  DetectionConfig cfg;
  auto h = Series({200, 204, 198, 201, 199, 150});
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kNeedsConfirmation);
  h.push_back(Sample{7, h.back().at + 3600, 152});
  EXPECT_EQ(EvaluateChange(Key(), h, cfg).kind, VerdictKind::kNeedsConfirmation);
  h.push_back(Sample{8, h.back().at + 7 * 86400, 151});
  Verdict third = EvaluateChange(Key(), h, cfg);
  EXPECT_EQ(third.kind, VerdictKind::kSlowdown) << third.summary;
  EXPECT_NE(third.summary.find("CUSUM"), std::string::npos) << third.summary;

  auto big = Series({200, 204, 198, 201, 199, 120});
  EXPECT_EQ(EvaluateChange(Key(), big, cfg).kind, VerdictKind::kNeedsConfirmation);
  big.push_back(Sample{7, big.back().at + 3600, 121});
  EXPECT_EQ(EvaluateChange(Key(), big, cfg).kind, VerdictKind::kSlowdown);
}

// Heavy-tailed healthy series (Student t with 3 degrees of freedom, 3% and
// 10% CV, with rare 40% outliers) never alert over ten years of weekly runs
// with a re-test after every doubtful run.
TEST(DetectionBadInput, HeavyTailedHealthySeriesNeverAlert) {
  DetectionConfig cfg;
  for (double cv : {0.03, 0.10}) {
    for (const char* metric : {"mb_per_s", "p99_us"}) {
      std::mt19937_64 rng(20261201 + static_cast<int>(cv * 100));
      std::student_t_distribution<double> t3(3);
      std::uniform_real_distribution<double> u(0, 1);
      auto draw = [&] {
        double e = cv * t3(rng) / std::sqrt(3.0);
        if (u(rng) < 0.01) e += std::log(1.4);  // unseen interference
        return 200 * std::exp(std::string(metric) == "mb_per_s" ? -e : e);
      };
      std::vector<Sample> h;
      std::int64_t id = 1;
      int alerts = 0, retests = 0;
      for (int week = 0; week < 520; ++week) {
        h.push_back(Sample{id++, kT0 + week * kWeek, draw()});
        Verdict v = EvaluateChange(Key(metric), h, cfg);
        if (v.Firing()) ++alerts;
        if (v.kind == VerdictKind::kNeedsConfirmation) {
          ++retests;
          h.push_back(Sample{id++, kT0 + week * kWeek + 6 * 3600, draw()});
          if (EvaluateChange(Key(metric), h, cfg).Firing()) ++alerts;
        }
      }
      EXPECT_EQ(alerts, 0) << metric << " cv " << cv << " re-tests " << retests;
      EXPECT_LT(retests, 60) << metric << " cv " << cv;
    }
  }
}

}  // namespace
}  // namespace dp::detect
