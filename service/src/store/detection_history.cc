#include "store/detection_history.h"

#include <algorithm>
#include <utility>

namespace dp {

Result<std::vector<MeasurementSample>> DetectionHistory(Store& store, HistoryQuery q,
                                                        std::int64_t since,
                                                        int baseline_max_runs, int newest) {
  q.oldest = false;
  q.limit = newest;
  q.since = std::max<std::int64_t>(q.since, 0);
  DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> recent, store.History(q));
  if (static_cast<int>(recent.size()) < q.limit) return recent;  // the whole history
  HistoryQuery head = q;
  head.oldest = true;
  head.since = std::max(q.since, since);
  head.limit = 2 * std::max(baseline_max_runs, 1);
  DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> oldest, store.History(head));
  std::vector<MeasurementSample> out;
  for (auto& s : oldest)
    if (s.at < recent.front().at) out.push_back(std::move(s));  // before the newest window
  for (auto& s : recent) out.push_back(std::move(s));
  return out;
}

}  // namespace dp
