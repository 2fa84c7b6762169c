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

#include <optional>
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
Verdict EvaluatePeers(const SeriesKey& self, std::vector<Sample> self_history,
                      const std::vector<PeerHistory>& siblings, const DetectionConfig& cfg);

// The accumulated change, for the groups whose comparison is noisiest: drives
// compared by their change (several models) and a lone pair. Every history
// is given as ratios to its drive's own baseline (1 = where it usually is),
// so a healthy drive's deviation from its siblings' median ratio is 0
// whatever its unit's own level. Over the latest kMaxWindows independent
// windows (no two share a sibling run, so a run and its re-test are one
// window), the mean deviation of the latest k (k = 2..kMaxWindows) is
// compared with the band of a mean of k windows: the peer rule's sigmas
// (a tenth of the drive's budget) times the series' pooled noise, each
// window's deviation holding the drive's run and the siblings' median
// (as PeerReference counts it) and the baselines' centres. One window's
// band is too wide for a 17% change at 5% noise (a ratio against a median
// of ratios: about 1.2 run's noise), a mean of four or more windows is not.
// Flagged when that mean also passes the floor (cfg.peer_min_percent) and
// the latest two windows are each worse than the siblings; with one sibling
// the drive must also account for at least half of the divergence by its
// own change (its own mean ratio), since either side could have moved.
// Light-tailed metrics only (TailDfOf 0: MB/s, IOPS): a mean of a few
// windows of a heavy-tailed figure is as wild as one of them. nullopt: not
// flagged (or not judged).
struct AccumulatedChange {
  int windows = 0;           // k: the latest windows whose mean passed
  double mean_log = 0;       // their mean deviation (log units, + = worse)
  double width_log = 0;      // the band it passed
  double own_log = 0;        // the drive's own mean change over them (+ = worse)
  std::vector<EvidenceRun> runs;  // the k windows' runs of the drive, oldest first
  double peer_median = 0;    // the siblings' median ratio in the latest window
};
inline constexpr int kMaxAccumulatedWindows = 8;
std::optional<AccumulatedChange> EvaluateAccumulatedChange(
    const SeriesKey& self, std::vector<Sample> self_relative,
    const std::vector<PeerHistory>& siblings_relative, const DetectionConfig& cfg);

}  // namespace dp::detect
