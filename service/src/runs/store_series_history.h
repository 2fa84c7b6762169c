// StoreSeriesHistory: detect::SeriesHistory over the SQLite store, what the
// daemon's judge (detect/judge.h) and the bands of the page, /metrics and
// the overview read. Re-baseline marks, a series' samples as detection reads
// them, the drive's good runs with the series their good points measured,
// and the drive's vdev siblings from the latest discovery's pools.
// Thread-safe as the Store is; holds nothing between calls.
#pragma once

#include <string>
#include <vector>

#include "detect/series_history.h"
#include "store/store.h"

namespace dp {

// The store query of one series' samples (all its point identity fields),
// the newest detect::kJudgedRuns.
HistoryQuery SeriesQuery(const std::string& drive_id, const detect::SeriesSpec& spec);

class StoreSeriesHistory final : public detect::SeriesHistory {
 public:
  explicit StoreSeriesHistory(Store& store) : store_(store) {}

  Result<std::int64_t> BaselineSince(const std::string& drive_id,
                                     const std::string& test) override;
  Result<std::vector<detect::Sample>> Samples(const std::string& drive_id,
                                              const detect::SeriesSpec& spec, std::int64_t since,
                                              int baseline_max_runs) override;
  Result<std::vector<detect::StoredRun>> GoodRuns(const std::string& drive_id,
                                                  const std::string& test, std::int64_t since,
                                                  int limit) override;
  Result<detect::BoxLayout> Box() override;
  Result<bool> SlowingBefore(const std::string& drive_id, std::int64_t at) override;
  Result<std::vector<detect::Sample>> PeerSamples(const std::string& drive_id,
                                                  const detect::SeriesSpec& spec) override;

 private:
  Store& store_;
};

// The drive as the judge knows it.
detect::DriveRef DriveRefOf(const Drive& drive);

}  // namespace dp
