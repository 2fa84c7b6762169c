// A vdev that moves together, through JudgeRun over a MemorySeriesHistory
// (as the field model drives it): six drives of one model, the seq test
// weekly at 2% noise, each week's runs 30 minutes apart. Every member
// stepping 10% worse from one week on, for good, is the vdev's event: an
// environment verdict, then its absorption. Every member creeping 0.25% worse
// a week (the room's yearly swing of 2% at its steepest) is
// nobody's event: no drive slowdown, no absorption; the drives are said not
// to be judged alone while the vdev drifts.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <random>

#include "detect/judge.h"
#include "detect/memory_effects.h"
#include "detect/memory_series_history.h"
#include "detect/series.h"
#include "model/condition.h"

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;
constexpr int kDrives = 6;

struct Seen {
  int environment = 0;      // kEnvironment verdicts (a watch until they persist)
  int absorbed = 0;         // of them, asking for a re-baseline
  int drive_slowdowns = 0;  // kSlowdown / kPeerOutlier of a drive
  int drifts = 0;           // drives not judged alone while the vdev crept
};

// `weeks` weekly runs of every drive; `level(week)` scales every drive's
// MB/s. Each judgement is carried out by ApplyJudgement, as the daemon's is.
void RunVdevInto(Seen& seen, int weeks, double (*level)(int), std::uint64_t seed) {
  MemorySeriesHistory history;
  std::vector<DriveRef> drives;
  std::vector<std::string> ids;
  for (int d = 0; d < kDrives; ++d) {
    drives.push_back({"wwn-" + std::to_string(d), "sd" + std::string(1, 'a' + d), "HDD-8T"});
    history.AddDrive(drives.back());
    ids.push_back(drives.back().id);
  }
  history.AddVdev("tank/raidz2-0", ids);
  DetectionConfig cfg;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 1);
  MemoryEffects effects(history);
  for (int w = 0; w < weeks; ++w)
    for (int d = 0; d < kDrives; ++d) {
      RunToJudge run;
      run.id = history.NewRunId();
      run.test = "seq";
      run.started_at = kT0 + w * kWeek + 1800 * d;
      run.drive = drives[d];
      BenchPoint p;
      p.test = "seq";
      p.block_size = 1 << 20;
      p.queue_depth = 8;
      p.mb_per_s = 200 * level(w) * std::exp(0.02 * noise(rng));
      run.points = {p};
      history.AddRun(drives[d].id, {run.id, "seq", run.started_at, false, false, {}}, run.points);
      auto judged = JudgeRun(run, history, cfg);
      ASSERT_TRUE(judged.ok()) << judged.status().ToString();
      auto peers = JudgeDuePeers("seq", run.started_at + 600, history, cfg, false);
      ASSERT_TRUE(peers.ok()) << peers.status().ToString();
      judged->Add(std::move(*peers));
      for (const Verdict& v : judged->verdicts) {
        if (v.kind == VerdictKind::kEnvironment) ++seen.environment;
        if (v.kind == VerdictKind::kSlowdown || v.kind == VerdictKind::kPeerOutlier)
          ++seen.drive_slowdowns;
        if (v.kind == VerdictKind::kInconclusive && v.drift) ++seen.drifts;
        if (v.rebaseline_from) ++seen.absorbed;
      }
      ASSERT_TRUE(ApplyJudgement(*judged, effects).ok());
    }
}

Seen RunVdev(int weeks, double (*level)(int), std::uint64_t seed) {
  Seen seen;
  RunVdevInto(seen, weeks, level, seed);
  return seen;
}

TEST(VdevDrift, AStepOfEveryMemberIsTheVdevsEventAndIsAbsorbed) {
  const Seen seen = RunVdev(40, [](int w) { return w >= 30 ? 0.9 : 1.0; }, 5);
  EXPECT_GT(seen.environment, 0);
  EXPECT_GT(seen.absorbed, 0);
  EXPECT_EQ(seen.drive_slowdowns, 0);
}

TEST(VdevDrift, ACreepOfEveryMemberIsNobodysEvent) {
  // Flat for 15 weeks, then 0.25% worse a week: 8.75% down by week 50.
  const Seen seen = RunVdev(50, [](int w) { return w < 15 ? 1.0 : 1 - 0.0025 * (w - 15); }, 5);
  // A single window of it may still look shared (an environment watch,
  // told only if it persists); over the drives' segments it is a drift.
  EXPECT_EQ(seen.absorbed, 0);
  EXPECT_EQ(seen.drive_slowdowns, 0);
  EXPECT_GT(seen.drifts, 0) << "the creep never reached the environment rule: the test is moot";
}

// Four drives alternating two models (compared by change) in one raidz.
std::vector<DriveRef> MixedFour(MemorySeriesHistory& history) {
  std::vector<DriveRef> drives;
  std::vector<std::string> ids;
  for (int d = 0; d < 4; ++d) {
    drives.push_back({"wwn-" + std::to_string(d), "sd" + std::string(1, 'a' + d),
                      d % 2 ? "HDD-12T" : "HDD-8T"});
    history.AddDrive(drives.back());
    ids.push_back(drives.back().id);
  }
  history.AddVdev("tank/raidz1-0", ids);
  return drives;
}

// A scheduled run of `drive` (every run stands on its own: no re-tests)
// stored, judged with the peers then due and applied as the daemon applies
// it; its verdicts, nullopt (and a failure) on an error.
std::optional<std::vector<Verdict>> JudgeAndApply(MemorySeriesHistory& history,
                                                  MemoryEffects& effects,
                                                  const DetectionConfig& cfg,
                                                  const DriveRef& drive, const std::string& test,
                                                  std::int64_t at,
                                                  std::vector<BenchPoint> points) {
  RunToJudge run;
  run.id = history.NewRunId();
  run.test = test;
  run.started_at = at;
  run.drive = drive;
  run.retests = false;
  run.points = std::move(points);
  history.AddRun(drive.id, {run.id, test, at, false, false, {}}, run.points);
  auto judged = JudgeRun(run, history, cfg);
  EXPECT_TRUE(judged.ok()) << judged.status().ToString();
  if (!judged.ok()) return std::nullopt;
  auto peers = JudgeDuePeers(test, at + 600, history, cfg, false);
  EXPECT_TRUE(peers.ok()) << peers.status().ToString();
  if (!peers.ok()) return std::nullopt;
  judged->Add(std::move(*peers));
  EXPECT_TRUE(ApplyJudgement(*judged, effects).ok());
  return judged->verdicts;
}

// A vdev of four drives of two models (compared by change against each
// drive's own baseline), the seq test weekly at 2% noise, the drives run in
// order, 30 minutes apart. `level(drive, week)` scales a drive's MB/s.
struct MixedSeen {
  int slow_peer_outliers = 0;  // the last drive's kPeerOutlier verdicts from week `from` on
  int slow_slowdowns = 0;      // its own kSlowdown verdicts from then on
  int drive_slowdowns = 0;     // every drive's kSlowdown / kPeerOutlier verdicts
  std::int64_t slow_since = 0;    // the last drive's re-baseline mark at the end
  std::int64_t healthy_since = 0;  // the second drive's
};
MixedSeen RunMixedVdev(int weeks, int from, double (*level)(int, int)) {
  MemorySeriesHistory history;
  const std::vector<DriveRef> drives = MixedFour(history);
  DetectionConfig cfg;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0, 1);
  MemoryEffects effects(history);
  MixedSeen seen;
  for (int w = 0; w < weeks; ++w)
    for (int d = 0; d < 4; ++d) {
      BenchPoint p;
      p.test = "seq";
      p.block_size = 1 << 20;
      p.queue_depth = 8;
      p.mb_per_s = (d % 2 ? 240 : 200) * level(d, w) * std::exp(0.02 * noise(rng));
      const auto verdicts =
          JudgeAndApply(history, effects, cfg, drives[d], "seq", kT0 + w * kWeek + 1800 * d, {p});
      if (!verdicts) return seen;
      for (const Verdict& v : *verdicts) {
        const bool slow = v.drive_id == "wwn-3" && w >= from;
        if (slow && v.kind == VerdictKind::kPeerOutlier) ++seen.slow_peer_outliers;
        if (slow && v.kind == VerdictKind::kSlowdown) ++seen.slow_slowdowns;
        if (v.kind == VerdictKind::kSlowdown || v.kind == VerdictKind::kPeerOutlier)
          ++seen.drive_slowdowns;
      }
    }
  seen.slow_since = *history.BaselineSince("wwn-3", "seq");
  seen.healthy_since = *history.BaselineSince("wwn-1", "seq");
  return seen;
}

// The last drive slows 17% for good in week 20; in that week and the next
// two healthy siblings happen to be 12% worse too. Over those two weeks the
// vdev looks shifted, and re-formed with its siblings the slow drive's
// baseline took 0.83 for its normal: compared by change it was never told
// again. Its change stands apart from theirs: it keeps its baseline, its
// slowdown is its own, and its siblings still absorb theirs.
TEST(VdevDrift, ADriveSlowerThanItsSiblingsAtAShiftIsNotReformedWithThem) {
  const MixedSeen seen = RunMixedVdev(36, 24, [](int d, int w) {
    if (d == 3 && w >= 20) return 0.83;
    if ((d == 1 || d == 2) && (w == 20 || w == 21)) return 0.88;
    return 1.0;
  });
  EXPECT_GT(seen.healthy_since, 0) << "no absorption: the scenario no longer makes a shift";
  EXPECT_EQ(seen.slow_since, 0) << "the slow drive was re-formed with its siblings";
  EXPECT_GT(seen.slow_peer_outliers + seen.slow_slowdowns, 0);
}

// The same vdev stepping 12% worse together, for good: absorbed for every
// member, none set apart, no drive's event.
TEST(VdevDrift, AStepOfEveryMemberOfTwoModelsIsAbsorbedForEach) {
  const MixedSeen seen = RunMixedVdev(36, 0, [](int, int w) { return w >= 20 ? 0.88 : 1.0; });
  EXPECT_GT(seen.healthy_since, 0);
  EXPECT_GT(seen.slow_since, 0);
  EXPECT_EQ(seen.drive_slowdowns, 0);
}

// The seek test's strokes and their access times (ms) at a drive's usual level.
struct Stroke {
  const char* name;
  double ms;
};
constexpr Stroke kStrokes[] = {
    {"full", 18}, {"half", 13}, {"quarter", 10}, {"short-forward", 4}, {"short-backward", 5}};

// A vdev of four drives of two models (compared by change), the seek test
// weekly with its five strokes, each stroke its own draw at `noise`, the
// drives run in `order`, 30 minutes apart. `level(drive, week, stroke)`
// scales a drive's access times (> 1: slower).
struct SeekSeen {
  std::vector<std::int64_t> since;  // each drive's re-baseline mark at the end
  std::vector<int> slowdowns;       // each drive's kSlowdown / kPeerOutlier verdicts
};
SeekSeen RunMixedSeek(int weeks, double noise, std::uint64_t seed, const std::vector<int>& order,
                      const std::function<double(int, int, int)>& level) {
  MemorySeriesHistory history;
  const std::vector<DriveRef> drives = MixedFour(history);
  DetectionConfig cfg;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> draw(0, 1);
  MemoryEffects effects(history);
  SeekSeen seen{std::vector<std::int64_t>(4, 0), std::vector<int>(4, 0)};
  for (int w = 0; w < weeks; ++w)
    for (std::size_t slot = 0; slot < order.size(); ++slot) {
      const int d = order[slot];
      std::vector<BenchPoint> points;
      for (int k = 0; k < static_cast<int>(std::size(kStrokes)); ++k) {
        BenchPoint p;
        p.test = "seek";
        p.stroke = kStrokes[k].name;
        p.access_ms = kStrokes[k].ms * (d % 2 ? 0.8 : 1.0) * level(d, w, k) *
                      std::exp(noise * draw(rng));
        points.push_back(p);
      }
      const auto verdicts =
          JudgeAndApply(history, effects, cfg, drives[d], "seek",
                        kT0 + w * kWeek + 1800 * static_cast<std::int64_t>(slot), points);
      if (!verdicts) return seen;
      for (const Verdict& v : *verdicts)
        if (v.kind == VerdictKind::kSlowdown || v.kind == VerdictKind::kPeerOutlier)
          for (int i = 0; i < 4; ++i)
            if (v.drive_id == drives[i].id) ++seen.slowdowns[i];
    }
  for (int d = 0; d < 4; ++d) seen.since[d] = *history.BaselineSince(drives[d].id, "seek");
  return seen;
}

const std::vector<std::vector<int>> kOrders = {{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}};

// The last drive slows on every stroke (times x1.2) for good in week 20; in
// that week and the next its siblings' full strokes happen to be 20% slower
// too. On the full stroke alone its change is theirs, and re-formed with
// them its slowdown became its normal: compared by change it was never
// told again. On the five strokes together it stands apart: it keeps its
// baseline and its slowdown is told; the siblings still absorb their shift.
TEST(VdevDrift, ADriveSlowOnEveryStrokeAtAShiftOfOneStrokeKeepsItsBaseline) {
  for (const std::vector<int>& order : std::vector<std::vector<int>>{
           {3, 2, 1, 0}, {1, 3, 0, 2}, {0, 3, 1, 2}, {3, 0, 1, 2}}) {
    SCOPED_TRACE("order " + std::to_string(order[0]) + std::to_string(order[1]) +
                 std::to_string(order[2]) + std::to_string(order[3]));
    const SeekSeen seen = RunMixedSeek(36, 0.02, 3, order, [](int d, int w, int k) {
      if (d == 3 && w >= 20) return 1.2;
      if (d != 3 && k == 0 && (w == 20 || w == 21)) return 1.2;
      return 1.0;
    });
    EXPECT_GT(seen.since[0] + seen.since[1] + seen.since[2], 0)
        << "no absorption: the scenario no longer makes a shift";
    EXPECT_EQ(seen.since[3], 0) << "the slow drive was re-formed with its siblings";
    EXPECT_GT(seen.slowdowns[3], 0);
  }
}

// A box step of every stroke of every member (times x1.15 from week 20 for
// good), at 3% and 5% noise, in several run orders: absorbed for every
// member, none set apart, no drive's event.
TEST(VdevDrift, AStepOfEveryStrokeIsAbsorbedForEveryMember) {
  for (const double noise : {0.03, 0.05})
    for (const std::vector<int>& order : kOrders) {
      SCOPED_TRACE("noise " + std::to_string(noise) + ", order " + std::to_string(order[0]) +
                   std::to_string(order[1]) + std::to_string(order[2]) +
                   std::to_string(order[3]));
      const SeekSeen seen =
          RunMixedSeek(40, noise, 5, order, [](int, int w, int) { return w >= 20 ? 1.15 : 1.0; });
      for (int d = 0; d < 4; ++d) {
        EXPECT_GT(seen.since[d], 0) << "drive " << d << " not absorbed";
        EXPECT_EQ(seen.slowdowns[d], 0) << "drive " << d;
      }
    }
}

}  // namespace
}  // namespace dp::detect
