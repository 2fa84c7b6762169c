// detect/judge.cc's own rules, through JudgeRun over a MemorySeriesHistory:
// one drive, weekly runs at a steady level with a fixed pattern of 2% noise.
// Each test names the rule it checks and asserts the judgement's typed
// fields (kinds, covered_by, retests), so it fails when the rule is taken
// out; each also shows the case the rule leaves alone, so it cannot pass by
// the judge doing nothing.
#include "detect/judge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "detect/memory_series_history.h"
#include "detect/series.h"
#include "model/condition.h"

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;
// Deviations in units of the noise (mean ~0, sd ~1): the same every run.
constexpr double kNoise[] = {0.3, -1.2, 0.8, -0.4, 1.5, -0.9, 0.1, 0.6, -1.6, 1.1};

class JudgeTest : public ::testing::Test {
 protected:
  void SetUp() override { history_.AddDrive(drive_); }

  // One run of `test` at `at`, every figure `level` times its usual value;
  // stored, then judged.
  Judgement RunAt(const std::string& test, std::int64_t at, double level,
                  bool confirmation = false, bool retests = true) {
    RunToJudge run;
    run.id = history_.NewRunId();
    run.test = test;
    run.started_at = at;
    run.drive = drive_;
    run.confirmation = confirmation;
    run.retests = retests;
    const double noise = 1 + 0.02 * kNoise[run.id % 10];
    BenchPoint p;
    p.test = test;
    p.block_size = 1 << 20;
    if (test == "zones") {
      p.queue_depth = 1;
      for (auto [zone, mb] : {std::pair<const char*, double>{"outer", 250}, {"inner", 120}}) {
        p.zone = zone;
        p.mb_per_s = mb * level * noise;
        run.points.push_back(p);
      }
    } else {
      p.queue_depth = 8;
      p.mb_per_s = 200 * level * noise;
      run.points.push_back(p);
    }
    StoredRun stored{run.id, test, at, false, false, {}};
    stored.confirmation = confirmation;
    history_.AddRun(drive_.id, stored, run.points);
    auto judged = JudgeRun(run, history_, cfg_);
    EXPECT_TRUE(judged.ok()) << judged.status().ToString();
    return judged.ok() ? std::move(judged).value() : Judgement{};
  }

  // `weeks` weekly runs of `test` at its usual level.
  void Steady(const std::string& test, int weeks) {
    for (int w = 0; w < weeks; ++w) RunAt(test, kT0 + w * kWeek, 1.0);
  }

  // The change verdict of the run's one seq series.
  static const Verdict& Change(const Judgement& j) {
    static const Verdict kNone;
    for (const Verdict& v : j.verdicts)
      if (v.test == "seq" && ConditionKindOf(v.condition) == ConditionKind::kSlowdown) return v;
    ADD_FAILURE() << "no change verdict";
    return kNone;
  }

  static const Verdict* Find(const Judgement& j, const std::string& series) {
    for (const Verdict& v : j.verdicts)
      if (v.series == series && ConditionKindOf(v.condition) == ConditionKind::kSlowdown)
        return &v;
    return nullptr;
  }

  DriveRef drive_{"wwn-judge", "sda", "HDD-8T"};
  MemorySeriesHistory history_;
  DetectionConfig cfg_;
};

// Consequences: a doubt asks for one re-test of the run's test; a re-test
// that doubts again, or a run where re-tests are off, asks for none.
TEST_F(JudgeTest, ADoubtAsksForOneRetestOfItsTest) {
  Steady("seq", 8);
  const std::int64_t at = kT0 + 8 * kWeek;
  const Judgement doubt = RunAt("seq", at, 0.75);
  EXPECT_EQ(Change(doubt).kind, VerdictKind::kNeedsConfirmation) << Change(doubt).summary;
  ASSERT_EQ(doubt.retests.size(), 1u);
  EXPECT_EQ(doubt.retests[0].drive_id, drive_.id);
  EXPECT_EQ(doubt.retests[0].test, "seq");
  ASSERT_FALSE(Change(doubt).runs.empty());
  EXPECT_EQ(doubt.retests[0].of_run, Change(doubt).runs.back().run_id);

  const Judgement clear = RunAt("seq", at + kWeek, 1.0);
  EXPECT_EQ(Change(clear).kind, VerdictKind::kClear) << Change(clear).summary;
  EXPECT_TRUE(clear.retests.empty());
}

TEST_F(JudgeTest, ARetestOrARunWithoutRetestsAsksForNone) {
  Steady("seq", 8);
  const std::int64_t at = kT0 + 8 * kWeek;
  const Judgement retest = RunAt("seq", at, 0.75, /*confirmation=*/true);
  EXPECT_NE(Change(retest).kind, VerdictKind::kClear) << Change(retest).summary;
  EXPECT_TRUE(retest.retests.empty());
  // Back to normal, then a drop on a run where re-tests are off: a doubt
  // that asks for nothing.
  RunAt("seq", at + kWeek, 1.0);
  RunAt("seq", at + 2 * kWeek, 1.0);
  const Judgement alone = RunAt("seq", at + 3 * kWeek, 0.75, false, /*retests=*/false);
  EXPECT_NE(Change(alone).kind, VerdictKind::kClear) << Change(alone).summary;
  EXPECT_TRUE(alone.retests.empty());
}

// FoldIntoJoint: when every zone dropped, the zones' own slowdowns are the
// combined series' evidence, covered by it, and only the combined one fires.
TEST_F(JudgeTest, TheZonesSlowdownsAreTheCombinedOnesEvidence) {
  Steady("zones", 8);
  const std::int64_t at = kT0 + 8 * kWeek;
  RunAt("zones", at, 0.7);
  const Judgement j = RunAt("zones", at + 6 * 3600, 0.7, /*confirmation=*/true);
  const Verdict* joint = Find(j, kJointSeries);
  ASSERT_NE(joint, nullptr);
  EXPECT_EQ(joint->kind, VerdictKind::kSlowdown) << joint->summary;
  ASSERT_TRUE(joint->details.contains("members")) << joint->details.dump();
  EXPECT_EQ(joint->details["members"].size(), 2u);
  for (const char* zone : {"outer", "inner"}) {
    bool seen = false;
    for (const Verdict& v : j.verdicts) {
      if (v.series.find(zone) == std::string::npos || v.series == kJointSeries ||
          ConditionKindOf(v.condition) != ConditionKind::kSlowdown)
        continue;
      seen = true;
      EXPECT_EQ(v.kind, VerdictKind::kInconclusive) << v.series << ": " << v.summary;
      EXPECT_EQ(v.covered_by, joint->condition) << v.series;
    }
    EXPECT_TRUE(seen) << "no verdict of the " << zone << " zone";
  }
}

// The baseline since a re-baseline mark: the first run after a mark is the
// first of a new baseline, not a drop from the old level; without the mark
// the same run is a doubt.
TEST_F(JudgeTest, ARunAfterAMarkStartsANewBaseline) {
  Steady("seq", 8);
  const std::int64_t at = kT0 + 8 * kWeek;
  const Judgement unmarked = RunAt("seq", at, 0.75);
  EXPECT_EQ(Change(unmarked).kind, VerdictKind::kNeedsConfirmation) << Change(unmarked).summary;

  history_.AddRebaseline(drive_.id, "seq", at + kWeek - 60);
  const Judgement marked = RunAt("seq", at + kWeek, 0.75);
  EXPECT_EQ(Change(marked).kind, VerdictKind::kBaselining) << Change(marked).summary;
  EXPECT_EQ(Change(marked).baseline_runs, 1);
  EXPECT_TRUE(marked.retests.empty());
}

}  // namespace
}  // namespace dp::detect
