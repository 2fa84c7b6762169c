// EvaluateEnvironment: tells a drive that got worse from a vdev that got
// worse. Members of one vdev share a controller, an enclosure (its
// temperature) and the pool's load; when the measured siblings are clearly
// worse against their own baselines in the same window as the drive, the cause is what
// they share, and it is reported once for the vdev as an environment change
// rather than as every member failing. This uses the siblings as a
// covariate, as fail-slow studies of large fleets do (IASO, ATC'19: peer
// comparison to tell a slow node from a slow cluster; Perseus, FAST'23:
// drives judged against peers under the same load). Pure function,
// thread-safe.
#pragma once

#include <string>
#include <vector>

#include "config/alerts_config.h"
#include "detect/peer_detector.h"
#include "detect/sample.h"
#include "model/verdict.h"

namespace dp::detect {

// self: the judged drive's series; group: "POOL/VDEV"; owner_drive_id: the
// drive the one vdev-level alert is filed under (the same for every member,
// e.g. the smallest member id). Each sibling contributes its good run closest
// to the drive's latest good run within +-cfg.peer_window_seconds, judged
// against its own baseline before that run; a run flagged interfered (its
// own unseen interference, recognised afterwards) is no evidence that the
// vdev moved, here or over a window.
// Kinds: kEnvironment (at least cfg.peer_min_siblings siblings measured in the
// window, the median sibling at least 2 of its own sigmas worse than its
// baseline and by at least half the drive's change, and the drive's latest
// run outside its own band), kClear (measured, not shared; or shared but
// absorbed: the drive's baselines re-formed since baseline_since and its run
// moved with the siblings'), kInconclusive (too few siblings measured, the
// drive's latest run is not evidence, or shared while the drive's run is
// inside its band by chance). own_slowdown: the drive's own verdict of the
// series; a sustained one is also judged over its window
// (EnvironmentOverWindow) when the latest run alone does not show the shift
// shared (kInconclusive with details "drift" when the vdev drifted there
// rather than stepped). condition = "environment:GROUP:TEST:SERIES:METRIC".
Verdict EvaluateEnvironment(const SeriesKey& self, std::vector<Sample> self_history,
                            std::vector<PeerHistory> siblings, const std::string& group,
                            const std::string& owner_drive_id, const DetectionConfig& cfg,
                            std::int64_t baseline_since = 0,
                            const Verdict* own_slowdown = nullptr);

// A slowdown the CUSUM found over several runs (IsSustainedSlowdown): each
// run may be inside its band, so one window's siblings cannot tell a shared
// shift at a noise that hides it run by run (an 8% step at 10% noise). Over
// the verdict's evidence runs instead: each sibling's good runs in the same
// weeks (+- peer_window_seconds), their median deviation from the sibling's
// baseline as it stood when the drive's open segment began (details
// "segment_from"; its old level when it was re-formed since), in standard
// errors of that median. Shared when at least peer_min_siblings siblings are measured, the
// median of them is kSharedScore (2) standard errors worse, by at least
// half the drive's own mean change and by at least half of
// cfg.min_band_percent (a material shift). Shared, it is a step
// (change-point on the siblings' common component) when the median
// sibling's first 6 runs from the drive's segment on are that material
// amount worse than its 6 just before, or when the siblings' pooled runs
// rose by twice that from one 4-week block to the next at some weekly split
// between the window's start and eight weeks before the segment began (the
// best of nine splits is larger by chance): `v` becomes the kEnvironment
// verdict (details "window") and kStep is returned. Shared but not a step is a drift (the room's season
// against a baseline formed over half a year, ageing): `v` becomes
// kInconclusive with details "window" and "drift", kDrift; the drive is
// then not judged alone, and nothing is absorbed or told. Else kNo, `v`
// untouched.
enum class SharedOverWindow { kNo, kDrift, kStep };
bool IsSustainedSlowdown(const Verdict& v);
SharedOverWindow EnvironmentOverWindow(const SeriesKey& self, const Verdict& own,
                                       const std::vector<PeerHistory>& siblings,
                                       const std::string& group, const DetectionConfig& cfg,
                                       Verdict& v);

// The members of a lasting shift the group shares (an own slowdown `own`
// of `self`, absorbed with its siblings) whose own change over it stands
// apart from the others': a drive slow beside its siblings while they
// moved too (by chance, or by less) is its own event, and re-formed with
// them its slowdown became its new normal. Each member (the drive itself,
// its runs `self_history` from its mark `self_since`, and each sibling) is
// read over the drive's window as EnvironmentOverWindow reads a sibling:
// the median worse-side deviation of its runs against its baseline as it
// stood before the shift, in log units, and that median's standard error.
// A member stands apart when it is worse than the median of the others'
// by kApartSigmas (2.5) of its standard error and by at least half of
// cfg.peer_min_percent: a box step moves every member alike, so one of a
// vdev of 6 is set apart in about 2% of true steps (it then absorbs the
// step alone on its own next doubt). Needs 2 members read; their ids.
std::vector<std::string> ApartAtShift(const SeriesKey& self,
                                      const std::vector<Sample>& self_history,
                                      std::int64_t self_since, const Verdict& own,
                                      const std::vector<PeerHistory>& siblings,
                                      const DetectionConfig& cfg);

// One series of a test at a shift: the drive's runs (`key`, its runs
// `self_history` from its mark `self_since`) and its siblings'.
struct ShiftSeries {
  SeriesKey key;
  std::vector<Sample> self_history;
  std::int64_t self_since = 0;
  std::vector<PeerHistory> siblings;
};
struct JointApart {
  std::string drive_id;
  int series = 0;     // series judged together
  double t = 0;       // the mean score over its sd
  double sd = 0;      // of the mean score
  double excess = 0;  // mean excess over the others' median change, log units
  bool apart = false;
};

// ApartAtShift over every series of the test at once: a fail-slow drive is
// slow on all of them, and a shift of one series the vdev shares by chance
// in its first slow week hides its change on that series alone, not on the
// rest. Each member is read on each series as ApartAtShift reads it (over
// `own`'s window); its excess over the others' median change, over that
// excess's sd (its standard error and the median's, pi/2 times a mean's
// variance), capped at +-kJointZCap, is averaged over the m series it was
// read on (at least 2). The mean's sd is 1/sqrt(m), or the robust spread of
// the same mean over the member's usual runs (each run's deviations from
// its baseline in its sigmas, at least cfg.baseline_runs runs read on
// every series) when larger: series of one run move together as much as
// the drive's state during the run moves them. A member stands apart when
// the mean is kApartSigmas (2.5) sds out and its mean excess at least half
// of cfg.peer_min_percent. A box step moves every member on every series
// alike: none stands apart. One entry per member read jointly.
std::vector<JointApart> JointlyApartAtShift(const Verdict& own,
                                            const std::vector<ShiftSeries>& series,
                                            const DetectionConfig& cfg);

}  // namespace dp::detect
