// JudgeRun: what one finished benchmark run means. The one place that
// decides it: the daemon (runs/run_evaluator.h), the field model
// (benchmarks/detect_field.cc) and the tests call it; the page, /metrics and
// the overview draw the bands it judges against with SeriesBand.
//
// For each series the run measured (detect::SeriesOf of its good points):
//   1. own history (EvaluateSeries: change and trend), its spread pooled with
//      the series of its noise family (NoiseFamily; detect/baseline.h);
//   2. a slowdown whose evidence holds unseen interference that has passed is
//      judged again without it (PassedInterference), and a slowdown or peer
//      verdict seen on every other read path of the drive in its window is
//      held (HoldSlowdown; the drive's other tests' scores, OtherTestScores);
//   3. the group's environment: a doubt every measured sibling shares is the
//      group's (EvaluateEnvironment), one verdict for the group; a scheduled
//      run's drop whose siblings have not run yet waits for their runs.
// The siblings' comparison (EvaluatePeers) is not the run's: it waits for
// the group's cycle (JudgeDuePeers).
// Then the test's joint series (the zones' combined MB/s), judged on its own
// spread floored by its members' and held the same way; the zones' own
// slowdowns of the run become its evidence: one event, one alert.
// Pure over its SeriesHistory: nothing is written, nothing is read but
// through it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "config/alerts_config.h"
#include "detect/baseline.h"
#include "detect/drive_shift.h"
#include "detect/judgement.h"
#include "detect/series_history.h"
#include "model/bench_result.h"
#include "model/verdict.h"

namespace dp::detect {

struct RunToJudge {
  std::int64_t id = 0;
  std::string test;
  std::int64_t started_at = 0;
  DriveRef drive;
  std::vector<BenchPoint> points;  // as stored, every test's points of the run
  // The run is a confirmation re-test of an earlier doubt.
  bool confirmation = false;
  // Re-tests can be asked for; without them every run stands on its own
  // (a doubt is decided by the run itself, as a confirmation would be).
  bool retests = true;
};

// The judgement of one run: every verdict, already held, folded and marked,
// and what they ask for (ApplyJudgement carries it out). A verdict of kind
// kNeedsConfirmation asks for a re-test of the run's test (when the run is
// no re-test itself and re-tests are on). No peer verdict: those wait for
// the group's cycle (JudgeDuePeers).
Result<Judgement> JudgeRun(const RunToJudge& run, SeriesHistory& history,
                           const DetectionConfig& cfg);

// How far back a run still waits for its peer comparison: runs of an older
// cycle were superseded by the next one.
inline constexpr std::int64_t kPeerPendingSeconds = 8 * 86400;

// Peers judged per cycle, not per run. Every present drive with a peer
// group (PeerGroupOf) whose newest good, whole run of `test` (at most
// kPeerPendingSeconds before `now`) has not been compared yet is compared
// now when its cycle is complete: every sibling has a good run within
// +-peer_window_seconds of it, or that window has closed (`now` is past it)
// with those that did. Each is judged at its own run against the siblings'
// runs of that window (EvaluatePeers; a group of several models by each
// drive's change against its own baseline; a pair only when the worse drive
// has also left its own baseline), held like the own slowdowns, and marked
// compared (Judgement::peer_judged); a doubt asks for a re-test of that
// drive alone. The daemon calls it after every run of `test` (`ran`: the
// drive that ran; only it and the drives it is a sibling of can have become
// due) and periodically with `ran` empty (every drive: windows that closed);
// the order in which a group's drives ran changes no verdict.
Result<Judgement> JudgeDuePeers(const std::string& test, std::int64_t now,
                                SeriesHistory& history, const DetectionConfig& cfg,
                                bool retests, const std::string& ran = "");

// A series of the drive whose spread pools with others', with its baseline
// formed from its own runs alone (no prior).
struct NoiseFamilyMember {
  SeriesKey key;
  Baseline own;
};

// Every judged series of the drive's tests that read the drive the way
// `test` does (SameReadPath), from the newest good, whole run of each such
// test: the candidates for the noise families of `test`'s series.
Result<std::vector<NoiseFamilyMember>> NoiseFamily(SeriesHistory& history,
                                                   const std::string& drive_id,
                                                   const std::string& test,
                                                   const DetectionConfig& cfg);

// The pooled spread of key's family among `members` (itself left out).
SpreadPrior FamilyPriorOf(const SeriesKey& key, const std::vector<NoiseFamilyMember>& members);

// The floor of `test`'s joint series (JointSpreadFloor) from its members'
// own baselines among `members`: the test's MB/s series.
SpreadPrior JointFloorOf(const std::string& test, const std::vector<NoiseFamilyMember>& members);

// One series' baseline as the judge forms it for the next run: the samples
// it reads, its family's pooled spread (or, for the joint series, its
// members' floor), from the drive's re-baseline mark. What the page's band,
// /metrics' band and the overview's percent are drawn from.
struct SeriesBaseline {
  std::vector<Sample> samples;  // as judged (SeriesHistory::Samples)
  Baseline baseline;
  Band band;
};

// `specs`: the series of one test of the drive (SeriesOf of one run's
// points). Returns one entry per spec, in order, and, when the test has a
// joint series and every spec's MB/s is given, the joint series' last.
struct TestBaselines {
  std::vector<SeriesBaseline> series;
  std::optional<SeriesBaseline> joint;
};
Result<TestBaselines> SeriesBands(SeriesHistory& history, const std::string& drive_id,
                                  const std::string& test, const std::vector<SeriesSpec>& specs,
                                  const DetectionConfig& cfg);

}  // namespace dp::detect
