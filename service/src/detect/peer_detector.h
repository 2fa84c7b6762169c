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

}  // namespace dp::detect
