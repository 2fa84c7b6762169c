// SeriesHistory: everything judging a run reads about the past, behind one
// interface, so the judge (detect/judge.h) stays a pure function of it. The
// daemon's implementation reads the SQLite store (runs/store_series_history.h);
// MemorySeriesHistory (detect/memory_series_history.h) holds a history in
// memory for the tests and for the field model (benchmarks/detect_field.cc),
// which so measure the judge the daemon runs, not a copy of it.
//
// The methods are the few questions judging asks: where a drive's baselines
// start (its latest re-baseline mark), a series' samples as detection reads
// them, the drive's good runs of its tests (the noise family's members and
// the drive-wide hold's other tests), and the drive's vdev siblings with
// their samples of a series.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "detect/sample.h"
#include "detect/series.h"

namespace dp::detect {

// The drive judged, as judging needs it.
struct DriveRef {
  std::string id;
  std::string name;   // for summaries
  std::string model;  // siblings are present members of the same model
};

// A good (outcome ok) run of one of the drive's tests, with the series its
// good points measured (points that were contended or partial name none).
struct StoredRun {
  std::int64_t id = 0;
  std::string test;
  std::int64_t started_at = 0;
  bool contended = false;
  bool partial = false;
  std::vector<SeriesSpec> series;

  bool Whole() const { return !contended && !partial; }
};

// The drive's vdev: "POOL/VDEV" ("" when it is in none), the drive a
// vdev-level verdict is filed under (the smallest member id, the same for
// every member), and its siblings: the other present members of its model.
struct VdevOfDrive {
  std::string group;
  std::string owner;
  std::vector<DriveRef> siblings;
};

class SeriesHistory {
 public:
  virtual ~SeriesHistory() = default;

  // The re-baseline time that applies to `test` of the drive (0 = never):
  // baselines form from the runs at or after it.
  virtual Result<std::int64_t> BaselineSince(const std::string& drive_id,
                                             const std::string& test) = 0;

  // A series' samples as detection reads them, oldest first: the newest
  // kJudgedRuns and, when those do not reach back that far, the oldest since
  // `since` (where the baseline is: up to 2 x baseline_max_runs, room for
  // runs the baseline screens out). With only the newest, a drive tested
  // daily for years would see its baseline slide forward with the window and
  // absorb a slow decline.
  virtual Result<std::vector<Sample>> Samples(const std::string& drive_id,
                                              const SeriesSpec& spec, std::int64_t since,
                                              int baseline_max_runs) = 0;

  // The drive's good runs, newest first: of `test` ("" = any test), started
  // at or after `since`, at most `limit`.
  virtual Result<std::vector<StoredRun>> GoodRuns(const std::string& drive_id,
                                                  const std::string& test, std::int64_t since,
                                                  int limit) = 0;

  // The drive's vdev and siblings (an empty group when it is in no vdev).
  virtual Result<VdevOfDrive> Vdev(const DriveRef& drive) = 0;

  // A sibling's newest kJudgedRuns samples of the series, oldest first.
  virtual Result<std::vector<Sample>> PeerSamples(const std::string& drive_id,
                                                  const SeriesSpec& spec) = 0;
};

// How many of a series' newest runs detection reads: the runs judged and the
// trend window.
inline constexpr int kJudgedRuns = 500;

// The newest `newest` of `all` (oldest first, one series) and, when those do
// not reach back that far, the oldest since `since` before them, up to
// 2 x baseline_max_runs: SeriesHistory::Samples over samples already in
// memory.
std::vector<Sample> JudgedWindow(const std::vector<Sample>& all, std::int64_t since,
                                 int baseline_max_runs, int newest = kJudgedRuns);

}  // namespace dp::detect
