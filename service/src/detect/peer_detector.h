// EvaluatePeers: compares a drive with its siblings: drives of the same model
// in the same vdev, measured in the same window (they share load,
// temperature and controller, so a drive worse than its siblings stands out
// even when its own history is short). For a run of the drive, each sibling
// contributes its good run closest in time within +-cfg.peer_window_seconds;
// with at least cfg.peer_min_siblings of them, the drive is outside when it
// is worse than the siblings' median (log scale) by more than the widest of
//   - the floor, cfg.peer_min_percent;
//   - cfg.peer_sigmas robust sigmas of the siblings' values (1.4826 b_n MAD;
//     Hampel 1974; Leys et al. 2013): a set of drives unlike each other;
//   - the single-run prediction band of baseline.h for the series' own noise,
//     pooled over the drive's and its siblings' baselines, with the median
//     standing for a reference of a few runs (peer_detector.cc).
// One window outside asks for confirmation; two consecutive windows outside
// (independent: the earlier one compared with other sibling runs, so a run
// and its re-test against the same sibling runs are one window)
// whose mean is beyond the pair band (the same widths for a mean of two)
// flag the drive; for a heavy-tailed figure (an access time, a p99) each of
// the two must be beyond the change rule's band for that (PairRuleWidths). The noise term is what keeps a noisy series honest: with
// two siblings and a 10% floor alone, a short-stroke seek of a few percent
// noise crossed it in two windows by chance. Nothing is compared until some
// drive's baseline has formed (cfg.baseline_runs good runs): the noise is
// unknown before. Pure function, thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"
#include "model/verdict.h"

namespace dp::detect {

struct PeerHistory {
  std::string drive_id;
  std::string drive_name;
  std::vector<Sample> samples;  // same test, series and metric as the drive judged
  // The sibling's re-baseline mark for the test (0: none): the environment
  // judges it against the baseline it has now (environment_detector.h).
  std::int64_t baseline_since = 0;
};

// self.drive_id's own samples are `self_history` (any order); `siblings` must
// not include the drive itself (entries with its drive_id are ignored).
// Kinds: kInconclusive (latest run not good, too few siblings measured in
// its window, or no baseline formed yet), kClear, kNeedsConfirmation,
// kPeerOutlier.
// condition = "peer:TEST:SERIES:METRIC".
//
// `standing`, when given, receives the series' latest two windows and its
// usual ones standardised, for the joint rule (JointPeerRule).
struct PeerStanding;
Verdict EvaluatePeers(const SeriesKey& self, std::vector<Sample> self_history,
                      const std::vector<PeerHistory>& siblings, const DetectionConfig& cfg,
                      PeerStanding* standing = nullptr);

// The joint peer rule: every series of one test of the drive at once. A
// fail-slow drive is slow on every series of a test (each seek stroke, both
// random queue depths and their p99s, every zone), so the series' evidence
// adds up where each alone stays inside its band: with three siblings
// compared by change at 5% noise, an 18% slower drive stands ~2.8 sigmas
// out on one series, short of the pair rule's 4.97, but ~6 on the mean of a
// seek test's five strokes.
//
// Each series' window is its deviation from the siblings' median less its
// usual lag (as the per-series rule judges it), over the deviation's sd
// (the series' pooled noise for the drive's run and the siblings' median:
// sigma sqrt(1 + 1/n_eff)), winsorised at +-kJointZCap so one wild p99
// cannot carry the rest. J, the mean of a window's scores, has sd 1/sqrt(m)
// for m independent series; series of one run can move together (the
// drive's state during the run), so the sd is the larger of that and the
// robust spread of J over the drive's usual windows (at least
// cfg.baseline_runs of them with every series judged), which carries any
// correlation the drive's series really have. A test is a peer outlier
// when, in the latest two windows, J is beyond cfg.band_sigmas sds in each,
// their mean beyond the per-series pair rule's level (4.97 sds of a mean of
// two for the default 4.5), and the series' mean excess beyond
// cfg.peer_min_percent in each (the floor: a drive of a different unit
// batch is not failing). With `own_sigmas` > 0 (a lone pair, where either
// side could have moved) the drive's own change must also be beyond that
// many sds jointly (PeerStanding::own_z).
struct PeerStanding {
  bool judged = false;  // the latest window and the one before were judged
  std::int64_t run_id = 0, before_run_id = 0;
  double z = 0, before_z = 0;            // standardised excess, + = worse
  double excess = 0, before_excess = 0;  // log units, + = worse, less the usual lag
  // The usual windows: run id -> standardised deviation.
  std::map<std::int64_t, double> usual_z;
  // The latest run against the drive's own baseline, standardised (+ =
  // worse); filled by the caller where the own change must agree (a pair).
  double own_z = 0;
};

struct JointPeerResult {
  bool outlier = false;
  int series = 0;                 // series judged together
  double t = 0, before_t = 0;     // each window's mean score over its sd
  double sd = 0;                  // of the mean score
  double excess = 0, before_excess = 0;  // mean excess, log units
  int usual_windows = 0;          // windows behind the sd's empirical part
};

inline constexpr double kJointZCap = 3;

JointPeerResult JointPeerRule(const std::vector<PeerStanding>& series, const DetectionConfig& cfg,
                              double own_sigmas = 0);

}  // namespace dp::detect
