// Peers judged per cycle: a drive is compared with its group once every
// member has run in the week's window (or the window has closed), whatever
// order they ran in. Each case runs the same box, with the same figures per
// drive and week, in several run orders (the slow drive first, in the
// middle, last) through JudgeRun, JudgeDuePeers and ApplyJudgement over a
// MemorySeriesHistory, as the daemon's evaluator does, and expects the same
// peer verdicts in every order, the slow drive flagged, and no healthy drive
// flagged. Shapes: a raidz of 4 and of 12, three two-way mirrors of one
// model (compared across the box), a lone two-way mirror, a vdev of two
// models, and a vdev one of whose drives was replaced by another model.
// Before per-cycle peers a drive measured before its second sibling was
// never compared, so the slow drive run first was never flagged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "detect/judge.h"
#include "detect/memory_effects.h"
#include "detect/memory_series_history.h"
#include "model/condition.h"

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;

struct BoxSpec {
  std::vector<std::vector<std::string>> vdevs;  // member models, by vdev
  int weeks = 14;
  int slow = -1;              // the slow drive's index (in vdev order)
  int slow_from = 0;          // the week it turns slow
  double slow_factor = 0.8;   // its MB/s from then on
  double noise = 0.02;        // each run's log-normal noise (sd, log units)
  std::uint64_t seed = 0;     // another draw of the same box
  // A drive replaced: at week `replace_at` drive `replaced` leaves and a
  // drive of `replacement_model` takes its place in its vdev.
  int replaced = -1, replace_at = 0;
  std::string replacement_model;
  // "seq" (one series, MB/s) or "seek" (five strokes' access times, each
  // with its own noise: the slow drive's times are 1/slow_factor).
  std::string test = "seq";
};

// The seek test's strokes and their access times (ms) for a drive at 200 MB/s.
struct Stroke {
  const char* name;
  double ms;
};
constexpr Stroke kStrokes[] = {
    {"full", 18}, {"half", 13}, {"quarter", 10}, {"short-forward", 4}, {"short-backward", 5}};

// One peer verdict, as the property compares it.
struct PeerSeen {
  std::string drive;
  int week;
  bool retest;
  VerdictKind kind;
  long change;  // percent, rounded

  bool operator==(const PeerSeen&) const = default;
  bool operator<(const PeerSeen& o) const {
    return std::tie(drive, week, retest) < std::tie(o.drive, o.week, o.retest);
  }
};

struct Outcome {
  std::vector<PeerSeen> peers;  // sorted
  std::map<std::string, int> outliers;  // drive -> kPeerOutlier verdicts
};

std::string IdOf(int i) { return "wwn-" + std::to_string(i); }

// The figure of drive `i` in `week` (its re-test when `retest`): the same
// whatever order the drives run in.
// `series`: which of the test's series (its own draw; 0 for seq).
double Figure(const BoxSpec& spec, int i, int week, bool retest, int series = 0) {
  std::mt19937_64 rng(1'000'003ULL * static_cast<std::uint64_t>(i + 1) +
                      7919ULL * static_cast<std::uint64_t>(week) + (retest ? 17 : 0) +
                      104'729ULL * spec.seed + 15'485'863ULL * static_cast<std::uint64_t>(series));
  const double unit = 1 + 0.01 * ((i * 37) % 5 - 2);  // units differ by up to 2%
  double level =
      200 * unit * std::exp(spec.noise * std::normal_distribution<double>(0, 1)(rng));
  if (i == spec.slow && week >= spec.slow_from) level *= spec.slow_factor;
  return level;
}

// The box run week by week in `order` (a permutation of the drive indices).
Outcome RunBox(const BoxSpec& spec, const std::vector<int>& order) {
  MemorySeriesHistory history;
  MemoryEffects effects(history);
  DetectionConfig cfg;
  std::vector<DriveRef> drives;
  std::vector<std::vector<std::string>> members(spec.vdevs.size());
  for (std::size_t g = 0; g < spec.vdevs.size(); ++g)
    for (const std::string& model : spec.vdevs[g]) {
      const int i = static_cast<int>(drives.size());
      drives.push_back({IdOf(i), "sd" + std::string(1, static_cast<char>('a' + i)), model});
      history.AddDrive(drives.back());
      members[g].push_back(drives.back().id);
    }
  const int n = static_cast<int>(drives.size());
  // The replacement's own id, after every original drive.
  DriveRef replacement{IdOf(n), "sdz", spec.replacement_model};
  if (spec.replaced >= 0) history.AddDrive(replacement);
  history.SetPresent(replacement.id, false);
  auto layout = [&](bool replaced) {
    std::vector<std::vector<std::string>> v = members;
    if (replaced)
      for (auto& g : v) std::replace(g.begin(), g.end(), IdOf(spec.replaced), replacement.id);
    return v;
  };
  for (std::size_t g = 0; g < members.size(); ++g)
    history.AddVdev("tank/vdev-" + std::to_string(g), members[g]);

  Outcome out;
  auto judge = [&](const DriveRef& drive, int figure_of, int week, std::int64_t at,
                   bool retest) {
    RunToJudge run;
    run.id = history.NewRunId();
    run.test = spec.test;
    run.started_at = at;
    run.drive = drive;
    run.confirmation = retest;
    if (spec.test == "seek") {
      for (int k = 0; k < static_cast<int>(std::size(kStrokes)); ++k) {
        BenchPoint p;
        p.test = "seek";
        p.stroke = kStrokes[k].name;
        p.access_ms = kStrokes[k].ms * 200 / Figure(spec, figure_of, week, retest, k);
        run.points.push_back(p);
      }
    } else {
      BenchPoint p;
      p.test = "seq";
      p.block_size = 1 << 20;
      p.queue_depth = 8;
      p.mb_per_s = Figure(spec, figure_of, week, retest);
      run.points = {p};
    }
    StoredRun stored{run.id, spec.test, at, false, false, {}};
    stored.confirmation = retest;
    history.AddRun(drive.id, stored, run.points);
    auto judged = JudgeRun(run, history, cfg);
    ASSERT_TRUE(judged.ok()) << judged.status().ToString();
    auto peers = JudgeDuePeers(spec.test, at + 600, history, cfg, true, drive.id);
    ASSERT_TRUE(peers.ok()) << peers.status().ToString();
    judged->Add(std::move(*peers));
    for (const Verdict& v : judged->verdicts) {
      if (ConditionKindOf(v.condition) != ConditionKind::kPeer) continue;
      if (v.kind == VerdictKind::kInconclusive) continue;
      // The week of the run the verdict is about (a re-test's is its own).
      const int w = static_cast<int>((v.at - kT0) / kWeek);
      const bool about_retest = (v.at - kT0) % kWeek >= 6 * 3600;
      out.peers.push_back({v.drive_id, w, about_retest, v.kind,
                           std::lround(v.change_percent.value_or(0))});
      if (v.kind == VerdictKind::kPeerOutlier) ++out.outliers[v.drive_id];
    }
    ASSERT_TRUE(ApplyJudgement(*judged, effects).ok());
  };
  bool replaced = false;
  for (int w = 0; w < spec.weeks; ++w) {
    if (spec.replaced >= 0 && w == spec.replace_at && !replaced) {
      replaced = true;
      history.SetPresent(IdOf(spec.replaced), false);
      history.SetPresent(replacement.id, true);
      const auto v = layout(true);
      for (std::size_t g = 0; g < v.size(); ++g)
        history.AddVdev("tank/vdev-" + std::to_string(g), v[g]);
    }
    const std::int64_t week_at = kT0 + w * kWeek;
    for (std::size_t slot = 0; slot < order.size(); ++slot) {
      const int i = order[slot];
      const DriveRef& d = replaced && i == spec.replaced ? replacement : drives[i];
      const int figure_of = replaced && i == spec.replaced ? n : i;
      judge(d, figure_of, w, week_at + 1800 * static_cast<std::int64_t>(slot), false);
    }
    // The re-tests asked for, 6 hours after the week's runs began.
    for (const RetestRequest& r : effects.TakeRetests()) {
      int i = 0;
      while (i < n && IdOf(i) != r.drive_id) ++i;
      const DriveRef& d = r.drive_id == replacement.id ? replacement : drives[i];
      judge(d, r.drive_id == replacement.id ? n : i, w, week_at + 6 * 3600 + 60 * i, true);
    }
  }
  std::sort(out.peers.begin(), out.peers.end());
  return out;
}

int Count(const BoxSpec& spec) {
  int n = 0;
  for (const auto& v : spec.vdevs) n += static_cast<int>(v.size());
  return n;
}

// The orders tried: the slow drive (or drive 0) first, in the middle, last;
// and the members reversed.
std::vector<std::vector<int>> Orders(const BoxSpec& spec) {
  const int n = Count(spec);
  const int slow = spec.slow >= 0 ? spec.slow : 0;
  std::vector<std::vector<int>> out;
  for (int place : {0, n / 2, n - 1}) {
    std::vector<int> order;
    for (int i = 0; i < n; ++i)
      if (i != slow) order.push_back(i);
    order.insert(order.begin() + place, slow);
    out.push_back(order);
  }
  std::vector<int> reversed(n);
  for (int i = 0; i < n; ++i) reversed[i] = n - 1 - i;
  out.push_back(reversed);
  return out;
}

// The property: every order gives the same peer verdicts; the slow drive
// is flagged, no other drive is.
// same_verdicts false: only the decision must not depend on the order (the
// slow drive flagged, no other): at 5% noise a drive's own rule asks for a
// re-test when its run doubts before its siblings have run (ConsultEnvironment),
// so one order can hold one re-test, and its peer verdict, more.
void ExpectOrderInvariant(const BoxSpec& spec, bool slow_flagged = true,
                          bool same_verdicts = true) {
  const auto orders = Orders(spec);
  std::vector<Outcome> outcomes;
  for (const auto& order : orders) {
    outcomes.push_back(RunBox(spec, order));
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (std::size_t k = 1; same_verdicts && k < outcomes.size(); ++k) {
    EXPECT_EQ(outcomes[k].peers.size(), outcomes[0].peers.size()) << "order " << k;
    EXPECT_TRUE(outcomes[k].peers == outcomes[0].peers)
        << "order " << k << " changed the peer verdicts";
  }
  for (const Outcome& o : outcomes) {
    const std::string slow = spec.slow >= 0 ? IdOf(spec.slow) : "";
    if (slow_flagged) {
      EXPECT_GT(o.outliers.count(slow) ? o.outliers.at(slow) : 0, 0)
          << "the slow drive was never flagged";
    }
    for (const auto& [drive, count] : o.outliers) {
      if (drive != slow || !slow_flagged) {
        EXPECT_EQ(count, 0) << drive << " flagged as a peer outlier";
      }
    }
    EXPECT_FALSE(o.peers.empty()) << "no drive was ever compared: the test is moot";
  }
}

std::vector<std::string> Models(int n, const std::string& model = "HDD-A") {
  return std::vector<std::string>(static_cast<std::size_t>(n), model);
}

TEST(PeerCycle, ARaidzOfFourFlagsItsSteadilySlowDriveInAnyOrder) {
  BoxSpec spec;
  spec.vdevs = {Models(4)};
  spec.slow = 1;
  ExpectOrderInvariant(spec);
}

TEST(PeerCycle, ARaidzOfTwelveFlagsItsSteadilySlowDriveInAnyOrder) {
  BoxSpec spec;
  spec.vdevs = {Models(12)};
  spec.slow = 5;
  spec.weeks = 12;
  ExpectOrderInvariant(spec);
}

TEST(PeerCycle, MirrorsOfOneModelAreComparedAcrossTheBox) {
  BoxSpec spec;
  spec.vdevs = {Models(2), Models(2), Models(2)};
  spec.slow = 2;
  ExpectOrderInvariant(spec);
}

TEST(PeerCycle, ALoneMirrorDivergesOnlyWhenOneSideLeavesItsOwnBaseline) {
  BoxSpec spec;
  spec.vdevs = {Models(2)};
  spec.slow = 1;
  // Slow from its first run: its own baseline formed there, so either side
  // could be the one that differs; not flagged.
  ExpectOrderInvariant(spec, /*slow_flagged=*/false);
  // Slowing after its baseline formed: it left its own baseline too.
  spec.slow_from = 8;
  spec.weeks = 14;
  ExpectOrderInvariant(spec);
}

TEST(PeerCycle, AVdevOfTwoModelsComparesEachDriveByItsChange) {
  BoxSpec spec;
  spec.vdevs = {{"HDD-A", "HDD-B", "HDD-A", "HDD-B"}};
  spec.slow = 1;
  spec.slow_from = 8;
  spec.weeks = 14;
  ExpectOrderInvariant(spec);
}

TEST(PeerCycle, AReplacementOfAnotherModelLeavesTheVdevComparable) {
  BoxSpec spec;
  spec.vdevs = {Models(4)};
  spec.replaced = 2;
  spec.replace_at = 3;
  spec.replacement_model = "HDD-NEW";
  spec.slow = 0;
  spec.slow_from = 9;
  spec.weeks = 15;
  ExpectOrderInvariant(spec);
}

// A lone mirror at 5% noise whose one side leaves its own band for good
// (x0.83 from week 10): flagged, whichever side ran first. One series alone
// at 5% is not caught in every draw within 14 weeks (the third draw is
// not: its own baseline takes the slower runs in before the mean of its
// windows passes); a drive's seven MB/s and IOPS series are
// (benchmarks/README.md, "Peers per cycle").
TEST(PeerCycle, ALoneNoisyMirrorFlagsTheSideThatLeftItsBand) {
  for (std::uint64_t seed : {1, 2}) {
    for (int slow = 0; slow < 2; ++slow) {
      BoxSpec spec;
      spec.vdevs = {Models(2)};
      spec.noise = 0.05;
      spec.slow_factor = 0.83;
      spec.slow = slow;
      spec.slow_from = 10;
      spec.weeks = 24;
      spec.seed = seed;
      SCOPED_TRACE("seed " + std::to_string(seed) + ", slow drive " + std::to_string(slow));
      ExpectOrderInvariant(spec, true, false);
    }
  }
}

// A drive slow on every seek stroke (times x1.2) from week 10, at 5% noise,
// in a vdev of two models (compared by change) and in a lone mirror: each
// stroke alone stands ~2.5-3 sigmas out of its siblings in a window, short of
// the pair rule, and its own history takes 9-10 weeks; the five strokes
// together (JointPeerRule) flag it by week 13 in every draw and order.
TEST(PeerCycle, ADriveSlowOnEverySeekStrokeIsFlaggedByTheStrokesTogether) {
  for (const std::vector<std::string>& vdev :
       {std::vector<std::string>{"HDD-A", "HDD-B", "HDD-A", "HDD-B"}, Models(2)}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      BoxSpec spec;
      spec.test = "seek";
      spec.vdevs = {vdev};
      spec.noise = 0.05;
      spec.slow_factor = 0.83;
      spec.slow = 1;
      spec.slow_from = 10;
      spec.weeks = 14;
      spec.seed = seed;
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(vdev.size()) +
                   " drives");
      ExpectOrderInvariant(spec, true, false);
    }
  }
}

// Healthy seek tests, five strokes each, at 3% and 5% noise for a year: the
// strokes together flag no drive either.
TEST(PeerCycle, HealthySeekStrokesTogetherFlagNoDrive) {
  struct Draw {
    double noise;
    std::uint64_t seed;
  };
  for (const Draw draw : {Draw{0.03, 1}, Draw{0.05, 2}}) {
    for (const std::vector<std::string>& vdev :
         {std::vector<std::string>{"HDD-A", "HDD-B", "HDD-A", "HDD-B"}, Models(2), Models(4)}) {
      BoxSpec spec;
      spec.test = "seek";
      spec.vdevs = {vdev};
      spec.noise = draw.noise;
      spec.weeks = 52;
      spec.seed = draw.seed;
      SCOPED_TRACE("noise " + std::to_string(draw.noise) + ", seed " + std::to_string(draw.seed) +
                   ", " + std::to_string(vdev.size()) + " drives");
      ExpectOrderInvariant(spec, /*slow_flagged=*/false, false);
    }
  }
}

// The same shapes healthy at 5% noise for a year: no drive flagged.
TEST(PeerCycle, HealthyNoisyGroupsComparedByChangeStaySilent) {
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    for (const std::vector<std::string>& vdev :
         {std::vector<std::string>{"HDD-A", "HDD-B", "HDD-A", "HDD-B"}, Models(2)}) {
      BoxSpec spec;
      spec.vdevs = {vdev};
      spec.noise = 0.05;
      spec.weeks = 52;
      spec.seed = seed;
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(vdev.size()) +
                   " drives");
      ExpectOrderInvariant(spec, /*slow_flagged=*/false, false);
    }
  }
}

}  // namespace
}  // namespace dp::detect
