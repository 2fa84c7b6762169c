// DriveShift: whether a doubt about one test of a drive is the whole drive's.
//
// Interference the contention guard cannot see (thermal throttling, SMR
// housekeeping, a scrub or resilver of another pool on the same HBA, a
// controller in error recovery) slows every test of a drive in the same
// window, and some of it outlasts a re-test: "two runs in a row" is then one
// event measured twice. A drive whose read path is failing shows first in the
// figures that depend on it (zones and seq for a weak head or a media zone,
// p99 for retries), not in every figure at once. So a slowdown whose window
// shows every other judged test of the drive worse too is held as a
// drive-wide shift until it has outlasted a scheduled run: it is alerted only
// when the next scheduled run and its re-test still see it (four runs, not
// two), and then the alert says so. A drop that leaves the drive's other
// tests alone is alerted at once. The same reasoning across the drives of a
// vdev is the environment verdict (environment_detector.h); this one needs no
// siblings. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/alerts_config.h"
#include "model/verdict.h"

namespace dp::detect {

// One judged run of another test of the drive: its time and the largest
// worse-side normal score of its series (Verdict details "score").
struct TestRunScore {
  std::string test;
  std::int64_t at = 0;
  double worst_score = 0;
};

// True when a and b read the drive the same way: the same test, or two of
// the sequential-throughput tests (zones, seq, sweep). A weak head or a bad
// media zone drops them together, so one of them being worse says nothing
// about the rest of the drive, and one of them not being worse (seq is a
// single series: at 10% noise a 39% interfered run of it scored 0.56 while
// seek and random scored 3.3 and 3.8) must not release unseen interference
// from the hold either.
bool SameReadPath(const std::string& a, const std::string& b);

// True when at least cfg.drive_wide_min_tests other tests that do not read
// the drive the same way as `test` (SameReadPath) ran within
// [from - 1 day, to] and each of them had a run there worse by at least
// cfg.drive_wide_score (normal units). Each, not their mean: judged on the
// mean (none under half of it), 15% drops at 3% noise were held as often
// as to take the share alerted within 4 runs with interference from 95% to
// 94.5% and within 2 runs from 83.5% to 79.5% (seed 7, 200 trials), for one
// false event fewer in 600 drive-years.
bool IsDriveWide(const std::string& test, std::int64_t from, std::int64_t to,
                 const std::vector<TestRunScore>& others, const DetectionConfig& cfg);

// Where a slowdown verdict's excursion began: the first of the consecutive
// outside runs that end at the judged run, for either rule. An old CUSUM
// segment kept open by a marginal run must not make a fresh excursion (two
// interfered runs) look long-lived and release it from the hold at once.
std::int64_t ExcursionStart(const Verdict& v);

// Applied to every kSlowdown verdict of a "slowdown:" condition before it can
// open an alert:
//   - a run that is not itself a confirmation re-test never opens one: it
//     becomes kNeedsConfirmation and its re-test decides (a pair of an old
//     marginal run and one wild new run is not two runs of evidence);
//   - when the shift is drive-wide, a confirmation run opens it only once its
//     excursion spans cfg.drive_wide_hold_days (the next scheduled run and
//     its re-test) and those last two runs are both outside the band, and
//     the alert then says so.
// Other verdicts are returned unchanged.
Verdict HoldSlowdown(Verdict v, bool confirmation_run, bool drive_wide,
                     const DetectionConfig& cfg);

}  // namespace dp::detect
