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
  bool confirmation = false;  // a confirmation re-test of an earlier run
  bool peer_judged = false;   // its peer comparison is done (JudgeDuePeers)

  bool Whole() const { return !contended && !partial; }
};

// The box as judging sees it: its present drives, and its vdevs with their
// members' ids ("POOL/VDEV").
struct BoxLayout {
  struct VdevMembers {
    std::string group;
    std::vector<std::string> members;
  };
  std::vector<DriveRef> drives;
  std::vector<VdevMembers> vdevs;
};

// The drives a drive is compared with (its peers, and the group whose
// shared shift is the box's environment rather than the drive's own):
//   - its vdev's other members of its model, when there are at least two;
//   - else every other present drive of its model on the box (other vdevs,
//     other pools, spares, drives in no pool), when there are at least two:
//     mirrors of one model are compared with each other;
//   - else its vdev's other members of any model, each compared by its
//     change against its own baseline (`relative`): a replacement of another
//     model still has peers;
//   - else the one other drive of its model on the box.
// With one sibling (a two-way mirror) a divergence is the drive's only when
// it has also left its own baseline (JudgeDuePeers).
// group: "POOL/VDEV", or "model:MODEL" for the box's drives of a model; ""
// when the drive has no sibling. owner: the drive a group-level verdict is
// filed under (the smallest id of the drive and its siblings, the same for
// every member of a group).
struct PeerGroup {
  std::string group;
  std::string owner;
  std::vector<DriveRef> siblings;
  bool relative = false;
};
using VdevOfDrive = PeerGroup;

PeerGroup PeerGroupOf(const DriveRef& self, const BoxLayout& box);

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

  // The box's present drives and its vdevs.
  virtual Result<BoxLayout> Box() = 0;

  // Whether the drive has a slowdown or trend alert, not resolved, that
  // opened before `at`: a drive already slowing before a shift its group
  // shares keeps its baselines (re-forming them would close its own event).
  virtual Result<bool> SlowingBefore(const std::string& drive_id, std::int64_t at) = 0;

  // The drive's peer group (PeerGroupOf over Box()).
  Result<PeerGroup> Group(const DriveRef& drive);

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
