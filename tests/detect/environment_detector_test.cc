// EvaluateEnvironment and EnvironmentOverWindow on their own: what counts
// as the siblings' evidence, and when it is the vdev's event.
#include "detect/environment_detector.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'800'000'000;
constexpr std::int64_t kWeek = 7 * 86400;

// Twelve weekly runs of about 200 MB/s (1% apart), then `last` in week 12,
// `offset` seconds into it.
std::vector<Sample> Weeks(std::int64_t first_id, double last, std::int64_t offset) {
  std::vector<Sample> out;
  for (int w = 0; w < 12; ++w)
    out.push_back(Sample{first_id + w, kT0 + w * kWeek + offset, 200 * (1 + 0.01 * (w % 3 - 1))});
  out.push_back(Sample{first_id + 12, kT0 + 12 * kWeek + offset, last});
  return out;
}

// Every member 20% down in the same window is the vdev's; but a sibling's
// run recognised afterwards as its own unseen interference (flagged
// interfered) is no evidence that the vdev moved.
TEST(EnvironmentDetector, ASiblingsInterferedRunIsNoEvidenceOfTheVdev) {
  DetectionConfig cfg;
  const SeriesKey self{"wwn-0", "sda", "seq", "qd8-1m", "mb_per_s"};
  auto siblings = [&](bool interfered) {
    std::vector<PeerHistory> out;
    for (int i = 1; i <= 3; ++i) {
      PeerHistory p;
      p.drive_id = "wwn-" + std::to_string(i);
      p.samples = Weeks(100 * i, 160, 1200 * i);
      p.samples.back().interfered = interfered;
      out.push_back(std::move(p));
    }
    return out;
  };
  const Verdict shared = EvaluateEnvironment(self, Weeks(0, 160, 0), siblings(false),
                                             "tank/raidz1-0", "wwn-0", cfg);
  EXPECT_EQ(shared.kind, VerdictKind::kEnvironment) << shared.summary;
  const Verdict interfered = EvaluateEnvironment(self, Weeks(0, 160, 0), siblings(true),
                                                 "tank/raidz1-0", "wwn-0", cfg);
  EXPECT_NE(interfered.kind, VerdictKind::kEnvironment) << interfered.summary;
}

// Weekly runs of a rate, `level(w)` in week w, 1% apart around it.
std::vector<Sample> Runs(std::int64_t first_id, int weeks, std::int64_t offset,
                         const std::function<double(int)>& level) {
  std::vector<Sample> out;
  for (int w = 0; w < weeks; ++w)
    out.push_back(Sample{first_id + w, kT0 + w * kWeek + offset,
                         level(w) * (1 + 0.01 * (w % 3 - 1))});
  return out;
}

// The drive's sustained slowdown over its last six weeks (what the CUSUM
// reports): its runs 6% below its 200 MB/s baseline.
Verdict SustainedSlowdown(int weeks) {
  Verdict v;
  v.kind = VerdictKind::kSlowdown;
  v.rule = Verdict::Rule::kCusum;
  v.baseline_center = 200;
  for (int w = weeks - 6; w < weeks; ++w)
    v.runs.push_back(EvidenceRun{w, kT0 + w * kWeek, 188, true});
  v.at = v.runs.back().at;
  v.segment_from = v.runs.front().at;
  return v;
}

// Shared over the drive's window, the siblings' common component tells a
// box step (a new driver: every sibling 8% lower from one week on, for
// good) from a drift (the room's season against a baseline formed over the
// other half of the year: the siblings creep 0.25% a week, so that their
// window is as far below their baselines, but no month is more than 1%
// below the month before it). The step is the vdev's event, to absorb and tell;
// the drift is nobody's: not the drive's slowdown, no box notice.
TEST(EnvironmentDetector, TellsABoxStepFromADriftTheSiblingsShare) {
  DetectionConfig cfg;
  const SeriesKey self{"wwn-0", "sda", "seq", "qd8-1m", "mb_per_s"};
  constexpr int kWeeks = 36;
  auto siblings = [&](const std::function<double(int)>& level) {
    std::vector<PeerHistory> out;
    for (int i = 1; i <= 5; ++i)
      out.push_back(PeerHistory{"wwn-" + std::to_string(i), "sd" + std::to_string(i),
                                Runs(100 * i, kWeeks, 1200 * i, level), 0});
    return out;
  };
  const Verdict own = SustainedSlowdown(kWeeks);
  ASSERT_TRUE(IsSustainedSlowdown(own));

  Verdict step;
  EXPECT_EQ(EnvironmentOverWindow(self, own,
                                  siblings([](int w) { return w >= kWeeks - 6 ? 184.0 : 200.0; }),
                                  "tank/raidz2-0", cfg, step),
            SharedOverWindow::kStep)
      << step.summary;
  EXPECT_EQ(step.kind, VerdictKind::kEnvironment);
  EXPECT_TRUE(step.over_window);
  EXPECT_FALSE(step.drift);
  EXPECT_GT(step.details["window"].value("siblings_step_percent", 0.0), 6);

  // At 10% noise a drive's CUSUM segment can open weeks after the step
  // that started it; the siblings' step is still found there.
  Verdict early;
  EXPECT_EQ(EnvironmentOverWindow(self, own,
                                  siblings([](int w) { return w >= kWeeks - 12 ? 184.0 : 200.0; }),
                                  "tank/raidz2-0", cfg, early),
            SharedOverWindow::kStep)
      << early.summary;

  Verdict drift;
  EXPECT_EQ(EnvironmentOverWindow(self, own,
                                  siblings([](int w) { return 200.0 * (1 - 0.0025 * w); }),
                                  "tank/raidz2-0", cfg, drift),
            SharedOverWindow::kDrift)
      << drift.summary;
  EXPECT_EQ(drift.kind, VerdictKind::kInconclusive);
  EXPECT_TRUE(drift.drift);
  EXPECT_GE(drift.change_percent, 3) << "shared: as far below the baselines as a step";
  EXPECT_LT(drift.details["window"].value("siblings_step_percent", 9.0), 3);

  // Siblings that stayed where they were: the drive's own.
  Verdict alone;
  EXPECT_EQ(EnvironmentOverWindow(self, own, siblings([](int) { return 200.0; }),
                                  "tank/raidz2-0", cfg, alone),
            SharedOverWindow::kNo);
  EXPECT_NE(alone.kind, VerdictKind::kEnvironment);
  EXPECT_FALSE(alone.over_window);
}

}  // namespace
}  // namespace dp::detect
