// MemorySeriesHistory: a SeriesHistory held in memory, for tests and for the
// field model (benchmarks/detect_field.cc), which feed it runs as the daemon
// stores them and judge each with the same JudgeRun the daemon calls. Not
// thread-safe: one per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "detect/series_history.h"

namespace dp::detect {

class MemorySeriesHistory final : public SeriesHistory {
 public:
  // A drive the history knows (siblings are looked up here).
  void AddDrive(const DriveRef& drive);
  // A vdev: its group name and its members' ids (every member present);
  // again for a group it knows, its members as they are now.
  void AddVdev(const std::string& group, const std::vector<std::string>& member_ids);
  // A drive pulled (false) or back (true): only present drives are peers.
  void SetPresent(const std::string& drive_id, bool present);
  // Who answers SlowingBefore (the alerts the caller keeps); none: no drive
  // is slowing.
  void SetSlowingBefore(std::function<bool(const std::string&, std::int64_t)> slowing);
  // A run's peer comparison is done (JudgementEffects::MarkPeerJudged): the
  // run's own flag, as the store keeps it.
  void AddPeerJudged(std::int64_t run_id);
  // A re-baseline mark of `test` ("" = every test) of the drive at `at`.
  void AddRebaseline(const std::string& drive_id, const std::string& test, std::int64_t at);
  // A run of the drive recognised as unseen interference
  // (Verdict::interference_runs): its samples are flagged interfered.
  void AddInterference(const std::string& drive_id, std::int64_t run_id);
  // A run id not used before in this history.
  std::int64_t NewRunId() { return ++last_run_id_; }
  // A finished good run (id, test, time, flags; its series are filled in
  // here) and its points, kept as the store keeps them: one sample of every
  // series (SeriesOf) of each of the test's points that has the figure, with
  // the point's flags. Runs of one drive are recorded in time order.
  void AddRun(const std::string& drive_id, StoredRun run, const std::vector<BenchPoint>& points);

  Result<std::int64_t> BaselineSince(const std::string& drive_id,
                                     const std::string& test) override;
  Result<std::vector<Sample>> Samples(const std::string& drive_id, const SeriesSpec& spec,
                                      std::int64_t since, int baseline_max_runs) override;
  Result<std::vector<StoredRun>> GoodRuns(const std::string& drive_id, const std::string& test,
                                          std::int64_t since, int limit) override;
  Result<BoxLayout> Box() override;
  Result<bool> SlowingBefore(const std::string& drive_id, std::int64_t at) override;
  Result<std::vector<Sample>> PeerSamples(const std::string& drive_id,
                                          const SeriesSpec& spec) override;

  // Every sample of a series, oldest first (what Samples windows).
  const std::vector<Sample>& All(const std::string& drive_id, const SeriesSpec& spec) const;

 private:
  // A series' identity within a drive: the test, the point's shape, the metric.
  using SpecId = std::tuple<std::string, std::string, std::string, std::string, std::string,
                            std::uint32_t, std::uint32_t, std::string>;
  static SpecId IdOf(const std::string& drive_id, const SeriesSpec& spec);

  std::vector<DriveRef> drives_;  // in the order added
  std::set<std::string> absent_;
  std::vector<BoxLayout::VdevMembers> vdevs_;
  std::function<bool(const std::string&, std::int64_t)> slowing_;
  std::map<std::string, std::vector<std::pair<std::string, std::int64_t>>> marks_;
  std::map<std::string, std::vector<StoredRun>> runs_;  // by drive, oldest first
  std::map<SpecId, std::vector<Sample>> samples_;
  std::int64_t last_run_id_ = 0;
};

}  // namespace dp::detect
