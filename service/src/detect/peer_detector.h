// EvaluatePeers: compares a drive with its siblings: drives of the same model
// in the same vdev, measured in the same window (they share load,
// temperature and controller, so a drive worse than its siblings stands out
// even when its own history is short). For a run of the drive, each sibling
// contributes its good run closest in time within +-cfg.peer_window_seconds;
// with at least cfg.peer_min_siblings of them, the drive is outside when it
// is worse than the siblings' median by more than
// max(cfg.peer_sigmas * 1.4826 * b_n * MAD, cfg.peer_min_percent % of the median)
// (median/MAD outlier rule: Hampel 1974; Leys et al. 2013). As with the own
// baseline, one window outside asks for confirmation and two consecutive
// windows outside flag the drive. Pure function, thread-safe.
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
};

// self.drive_id's own samples are `self_history` (any order); `siblings` must
// not include the drive itself (entries with its drive_id are ignored).
// Kinds: kInconclusive (latest run not good, or too few siblings measured in
// its window), kClear, kNeedsConfirmation, kPeerOutlier.
// condition = "peer:TEST:SERIES:METRIC".
Verdict EvaluatePeers(const SeriesKey& self, std::vector<Sample> self_history,
                      const std::vector<PeerHistory>& siblings, const DetectionConfig& cfg);

}  // namespace dp::detect
