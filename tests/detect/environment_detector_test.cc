// EvaluateEnvironment and EnvironmentOverWindow on their own: what counts
// as the siblings' evidence, and when it is the vdev's event.
#include "detect/environment_detector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

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

// A vdev of four over 36 weeks, the seek test's five strokes (access
// times, lower is better), each run its own draw at `noise`;
// `level(member, week, stroke)` scales a member's times. One ShiftSeries a
// stroke, judged for member 0.
std::vector<ShiftSeries> Strokes(double noise, std::uint64_t seed,
                                 const std::function<double(int, int, int)>& level) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> draw(0, 1);
  std::vector<ShiftSeries> out;
  for (int k = 0; k < 5; ++k) {
    const std::string stroke = "stroke-" + std::to_string(k);
    ShiftSeries s{SeriesKey{"wwn-0", "sda", "seek", stroke, "access_ms"}, {}, 0, {}};
    for (int d = 0; d < 4; ++d) {
      std::vector<Sample> runs;
      for (int w = 0; w < 36; ++w)
        runs.push_back(Sample{1000 * d + w, kT0 + w * kWeek + 1800 * d,
                              (10 + k) * level(d, w, k) * std::exp(noise * draw(rng))});
      if (d == 0)
        s.self_history = std::move(runs);
      else
        s.siblings.push_back(PeerHistory{"wwn-" + std::to_string(d), "sd", std::move(runs), 0});
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool Apart(const std::vector<JointApart>& members, const std::string& id) {
  return std::any_of(members.begin(), members.end(),
                     [&](const JointApart& a) { return a.drive_id == id && a.apart; });
}

// Member 0 slows on every stroke (times x1.2) from week 30; in the same
// weeks the other three members' first stroke is 20% slower too. On that
// stroke alone its change is theirs (ApartAtShift sets no one apart); on
// the five together it stands apart, and no other member does.
TEST(EnvironmentDetector, AMemberSlowOnEveryStrokeStandsApartJointlyAtAShiftOfOne) {
  DetectionConfig cfg;
  const Verdict own = SustainedSlowdown(36);
  for (std::uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<ShiftSeries> series = Strokes(0.03, seed, [](int d, int w, int k) {
      if (w < 30) return 1.0;
      return d == 0 || k == 0 ? 1.2 : 1.0;
    });
    const ShiftSeries& first = series.front();
    EXPECT_TRUE(ApartAtShift(first.key, first.self_history, 0, own, first.siblings, cfg).empty());
    const std::vector<JointApart> joint = JointlyApartAtShift(own, series, cfg);
    ASSERT_EQ(joint.size(), 4u);
    EXPECT_TRUE(Apart(joint, "wwn-0"));
    for (const char* id : {"wwn-1", "wwn-2", "wwn-3"}) EXPECT_FALSE(Apart(joint, id)) << id;
    for (const JointApart& a : joint) EXPECT_EQ(a.series, 5);
  }
}

// A box step of every stroke of every member (x1.15 from week 30), at 3%
// and 5% noise: no member stands apart. Strokes that move together in
// every run (the same draw for all five) count as one: the joint score's
// sd is their usual runs' spread, not 1/sqrt(5), and a member a little
// worse on one draw is not set apart on five copies of it.
TEST(EnvironmentDetector, ABoxStepOfEveryStrokeSetsNoMemberApartJointly) {
  DetectionConfig cfg;
  const Verdict own = SustainedSlowdown(36);
  for (double noise : {0.03, 0.05})
    for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
      SCOPED_TRACE("noise " + std::to_string(noise) + ", seed " + std::to_string(seed));
      const std::vector<JointApart> joint = JointlyApartAtShift(
          own, Strokes(noise, seed, [](int, int w, int) { return w >= 30 ? 1.15 : 1.0; }), cfg);
      ASSERT_EQ(joint.size(), 4u);
      for (const JointApart& a : joint) EXPECT_FALSE(a.apart) << a.drive_id << " t " << a.t;
    }
  // Five copies of one draw a member: member 0's runs 6% worse from week
  // 30, beyond the floor of 5% but within the noise of one series.
  std::mt19937_64 rng(9);
  std::normal_distribution<double> draw(0, 1);
  std::vector<std::vector<double>> figure(4, std::vector<double>(36));
  for (int d = 0; d < 4; ++d)
    for (int w = 0; w < 36; ++w)
      figure[d][w] = std::exp(0.05 * draw(rng)) * (w >= 30 ? (d == 0 ? 1.08 * 1.15 : 1.15) : 1.0);
  const std::vector<ShiftSeries> copies =
      Strokes(0, 1, [&](int d, int w, int) { return figure[d][w]; });
  const std::vector<JointApart> joint = JointlyApartAtShift(own, copies, cfg);
  ASSERT_EQ(joint.size(), 4u);
  for (const JointApart& a : joint) {
    EXPECT_GT(a.sd, 0.7) << a.drive_id << ": five copies of one draw counted as five";
    EXPECT_FALSE(a.apart) << a.drive_id << " t " << a.t;
  }
}

}  // namespace
}  // namespace dp::detect
