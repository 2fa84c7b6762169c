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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"
#include "model/verdict.h"

namespace dp::detect {

// One judged run of another test of the drive: its time and how much worse
// it was (TestScore of its series).
struct TestRunScore {
  TestRunScore() = default;
  TestRunScore(std::string test_name, std::int64_t run_at, double run_score,
               std::optional<double> run_worse_log = std::nullopt)
      : test(std::move(test_name)), at(run_at), score(run_score), worse_log(run_worse_log) {}
  std::string test;
  std::int64_t at = 0;
  double score = 0;
  // How much worse the run was on the log scale (+ = worse): the median
  // over its series (TestWorseLog). Unknown: the shift's size is not compared.
  std::optional<double> worse_log;
};

// How much worse one run of a test was, from its series' scores (Verdict
// details "score", normal units, + = worse): the highest. By chance the
// highest of five seek strokes or four random figures is at least 2 in about
// one run in nine, so two other tests agree by chance often enough to hold
// about 3% of real 15% drops at 3% noise past their re-test as "drive-wide"
// (alerted at runs 3-4 instead of 2). Every statistic that held fewer real
// drops also held less interference, because at 5-15% noise interference
// of 10-60% scores 1.5-3 per series, where chance scores too; false events
// in 3000 healthy drive-years against the share of 15% drops at 3% noise
// seen within 2 runs:
//   highest (this)                         seed 11: 10 false events, 95.5%
//   second highest                         seed 11: 13, 99.5%; seed 7: 5 (2), 98%
//   highest, Sidak-corrected for k series  seed 11: 17, 99%
//   median                                 seed 11: 21, 99%
// A false alert costs more trust than a drop alerted a week later. Empty: 0.
double TestScore(const std::vector<double>& series_scores);

// How much worse a series' judged value is than its baseline on the log
// scale (+ = worse, so a 20% drop of a throughput and a 25% rise of a time
// are the same shift): from v.current and details "baseline_mean". nullopt
// when either is missing or not positive.
std::optional<double> WorseLogOf(const Verdict& v);

// How much worse one run of a test was, from its series' WorseLogOf: the
// median, the shift its series share (a drive-wide shift moves them all; one
// series' chance excursion does not). Non-finite values are ignored; none
// left: nullopt.
std::optional<double> TestWorseLog(std::vector<double> series_logs);

// True when a and b read the drive the same way: the same test, or two of
// the sequential-throughput tests (zones, seq, sweep). A weak head or a bad
// media zone drops them together, so one of them being worse says nothing
// about the rest of the drive, and one of them not being worse (seq is a
// single series: at 10% noise a 39% interfered run of it scored 0.56 while
// seek and random scored 3.3 and 3.8) must not release unseen interference
// from the hold either.
bool SameReadPath(const std::string& a, const std::string& b);

// "sequential" for zones, seq and sweep; any other test is its own path.
std::string ReadPathOf(const std::string& test);

// True when at least cfg.drive_wide_min_tests other read paths than `test`'s
// (ReadPathOf: zones, seq and sweep are one) ran within [from - 1 day, to]
// and they were worse there: a path's score is the highest score (TestScore,
// normal units) of each of its tests in the window, averaged over the path's
// tests; the paths' mean is at least cfg.drive_wide_score and each at least
// cfg.drive_wide_least_score. On average, not each: at 10-15% noise
// interference 20-30% deep scores 1.2-3 per path, and asking 2 of each
// released interfered pairs (zones 1.25, seek 1.83, random 3.10 beside a seq
// pair; the sequential path 1.97 beside a random one) as false alerts. Since
// the hold also asks that the shift explain the drop (DriveWideExplains), a
// real drop is not held by the softer test unless the other paths moved by
// a like share. One path, not one test: for a random pair under
// interference that outlasted its re-test, zones scored 3.2 and 4.0 and
// seek 3.5, but the one seq run 1.6, and counted as a test of its own it
// released the pair (a false alert at 10% noise). Their average, not either
// of them: zones or seq alone at 2 happens by chance often enough to hold
// 2.5% of real p99 rises at 3% noise.
bool IsDriveWide(const std::string& test, std::int64_t from, std::int64_t to,
                 const std::vector<TestRunScore>& others, const DetectionConfig& cfg);

// IsDriveWide, and the shift the other read paths share is large enough to
// explain v: the smaller worse deviation of v's last two outside runs from
// `from` on (a pair's two runs; a CUSUM's last excursion), less that
// shift (the paths' mean worse_log), would not still lie beyond v's
// single-run band (all on the log scale). The seasonal swing or a warm week moves
// every test of a drive by a sigma or two, which is enough for each to score
// drive_wide_score now and then; a 15% drop of zones and seq met such a
// window in about 3% of drops at 2% noise and was held a week as
// "drive-wide", though 2-4% of shift explains little of 15%. Unseen
// interference slows every test by a like share, and is still held. When a
// path's percent or v's baseline is unknown (a peer verdict), IsDriveWide
// alone decides.
bool DriveWideExplains(const Verdict& v, const std::string& test, std::int64_t from,
                       std::int64_t to, const std::vector<TestRunScore>& others,
                       const DetectionConfig& cfg);

// A held verdict's latest run judged on its own moment: the drive's other
// read paths' runs within kNearSeconds of it (a scheduled run's other tests
// run minutes apart, its re-tests hours later) show no shift that explains
// it, and it lies beyond v's single-run band by more than their shift. A
// week-old slowdown whose next scheduled run fell in unseen interference is
// held again as a pair (the interfered run is half of it), yet its clean
// re-test still stands out: evidence that the change persists
// (alert/alert_events.h notifies a watch on it). False when no other path
// ran near it.
inline constexpr std::int64_t kNearSeconds = 3 * 3600;
bool LatestStandsOut(const Verdict& v, const std::string& test,
                     const std::vector<TestRunScore>& others);

// True when value lies beyond `share` of v's single-run band on the worse
// side (false when v has no band).
bool BeyondBand(const Verdict& v, double value, double share = 1.0);

// A run of v's series before v's latest, judged once it has passed: it lay
// beyond v's band, v's latest run (v.current) is back within half of it,
// and within kNearSeconds of it every other read path of the drive was
// worse (IsDriveWide), by at least the pair floor (confirm_min_percent:
// interference makes a run 10-60% worse) and by a share that explains it
// (as DriveWideExplains asks). Such a run was unseen interference (a scrub
// the guard could not see, another host on the same shelf): the judge
// records it (Verdict::interference_runs) and no baseline takes it in
// (Sample::interfered). Taken in once its segment closed, an interfered run
// of a heavy-tailed series passed the admission screen and widened the
// series' noise for years of runs (at 3% noise, seek strokes with own CVs
// of 4.3-6% where their runs scatter 3.5%, and a 25% seek rise then takes a
// third week to be seen). Each condition keeps ordinary runs in: only its own
// moment (a re-test's day holds its scheduled run's interfered tests), only
// once passed and only a shift of interference's size (a box-wide change or
// a warm week moves every path together too, and its runs must be there to
// re-form the baselines on. Beyond half the band was not enough: an 8% box
// step at 10% noise had many of its runs marked, the baselines could not
// follow it, and two healthy drives were notified).
bool WasInterference(const Verdict& v, const std::string& test, const Sample& run,
                     std::int64_t to, const std::vector<TestRunScore>& others,
                     const DetectionConfig& cfg);

// Young baselines. While a test's first runs form its baseline, neither it
// nor any other test of the drive has a band yet, so WasInterference cannot
// judge a run; yet the first-run outlier test (baseline.h) sees a run 10-20%
// off four others only at 30% and more (three degrees of freedom), and an
// interfered first run then skews the young baseline's centre and widens its
// spread for the months its window takes to outgrow it, slowing every
// detection on that series (at 3% noise, marking the first eight weeks'
// interfered runs alone gains as much in how soon a 15% drop and a 25% seek
// rise are notified as marking every interfered run). So a young run is
// judged against its neighbours instead: the runs of its own series nearest
// in time on either side.

// One series' runs and which way is worse.
struct SeriesRuns {
  std::vector<Sample> samples;  // oldest first
  Direction direction = Direction::kHigherIsBetter;
};

// How much worse (log scale, + = worse) run `run_id` of a test was than its
// neighbours: per series, against the median log value of the (at most 8)
// good runs nearest in time to `around` more than a day from it, not flagged
// interfered (the run's re-test shares its moment, and a flagged run is no
// reference), at least 4 of them; the median over the test's series (a
// drive-wide shift moves them all). nullopt when no series has the run and
// its neighbours.
std::optional<double> NeighbourShift(const std::vector<SeriesRuns>& test, std::int64_t run_id,
                                     std::int64_t around);

// A young run of `test`, `own` worse than its neighbours (NeighbourShift),
// the test's next scheduled run (a day or more later) `back` against the
// same neighbours, and `others` the other tests' runs at its moment (each
// worse_log their NeighbourShift there): unseen interference when the run
// lies at least the pair floor (confirm_min_percent: interference makes a
// run 10-60% worse) beyond its neighbours, the next scheduled run is back
// within half of it (a box-wide step or a drive that is failing everywhere
// stays), and at least cfg.drive_wide_min_tests other read paths (their
// tests' mean) were worse too, each by half the floor and on average by
// three quarters of it. Per path, as IsDriveWide: zones and seq are one read
// path. At 10% noise chance meets all of that in about one young run in a
// few hundred, and then takes a run 10% off its neighbours out of a
// baseline of five or more.
bool WasYoungInterference(const std::string& test, double own, double back,
                          const std::vector<TestRunScore>& others, const DetectionConfig& cfg);

// Where a slowdown verdict's excursion began: the first of the consecutive
// outside runs that end at its last outside run, for either rule. An old
// CUSUM segment kept open by a marginal run must not make a fresh excursion
// (two interfered runs) look long-lived and release it from the hold at
// once. A CUSUM can cross on a run back inside the band, its evidence the
// excursion before it: that excursion's window is the one the hold reads
// (interference that outlasted a re-test, then two ordinary runs, made a
// false alert at 10% noise while the window of the last run alone was calm).
// v.at when no run is outside.
std::int64_t ExcursionStart(const Verdict& v);

// The runs of a slowdown verdict's evidence that were unseen interference
// and have passed: when the window of its last two runs is not drive-wide
// (DriveWideExplains from PairStart), each outside run before them whose
// own window (a day either side, not past the series' next run)
// DriveWideExplains (every other read path of the drive worse
// then, by a share that explains the run). The hold kept such runs from
// alerting when they happened, but a CUSUM goes on summing them: an
// interfered scheduled run and its re-test (30-40% worse) left a segment
// that two ordinary runs later carried over the decision interval, weeks
// later at 15% noise, or the next week at 3% where the pair after it was
// only just outside the band and released the hold: false alerts on healthy
// drives, from runs that were never the drive's own. They are not evidence;
// the evaluator judges the series again without them, and the runs after
// them must stand on their own. A real drop met by interference is kept:
// its run is worse than the shared shift explains. While the last pair's
// window is itself drive-wide nothing is taken out (the hold decides).
// Run ids, in v.runs order; empty when none.
std::vector<std::int64_t> PassedInterference(const Verdict& v, const std::string& test,
                                             const std::vector<TestRunScore>& others,
                                             const DetectionConfig& cfg);

// history without the runs named (PassedInterference's), for judging a
// series again.
std::vector<Sample> WithoutRuns(std::vector<Sample> history,
                                const std::vector<std::int64_t>& run_ids);

// The earliest run of a verdict's evidence (v.at when it has none): the
// window PassedInterference needs the drive's other tests for.
std::int64_t EvidenceStart(const Verdict& v);

// The time of the first of a slowdown verdict's last two runs (the run that
// asked for a re-test and its re-test), or v.at with fewer than two.
std::int64_t PairStart(const Verdict& v);

// True for the verdicts HoldSlowdown holds: kSlowdown of a "slowdown:"
// condition and kPeerOutlier of a "peer:" one. A drive that unseen
// interference slows is worse than its siblings as much as than its own
// baseline: unheld, the peer rule alerts on one drive's interference that
// outlasts its re-test (in vdevs of three at 10% noise, several alerts a
// year for every hundred healthy drives).
bool IsHeldKind(const Verdict& v);

// Applied to every verdict IsHeldKind names before it can open an alert:
//   - a run that is not itself a confirmation re-test never opens one: it
//     becomes kNeedsConfirmation and its re-test decides (a pair of an old
//     marginal run and one wild new run is not two runs of evidence);
//   - when the shift is drive-wide, a confirmation run opens it only once its
//     excursion spans cfg.drive_wide_hold_days (the next scheduled run and
//     its re-test) and those last two runs are both outside the band, and
//     the alert then says so;
//   - when the window of its last two runs alone is drive-wide
//     (pair_drive_wide: IsDriveWide from PairStart), it is held whatever
//     came before: the runs that would confirm it are the ones every test
//     saw worse. A marginal run a week earlier had made the excursion long
//     enough to release an interfered pair at once (a healthy zones series
//     at 3% noise: -6%, then -30% and -10% under interference that every
//     test saw).
// Other verdicts are returned unchanged.
//   - a drive with no siblings (`alone`) is released from that hold like a
//     peer verdict: once it has persisted (its excursion spans the hold and
//     its last two runs are outside). Nothing else can tell it: no peer
//     verdict speaks for it, and held on every path at once, a lone drive
//     that slowed on every read path was never told.
Verdict HoldSlowdown(Verdict v, bool confirmation_run, bool drive_wide,
                     const DetectionConfig& cfg, bool pair_drive_wide = false,
                     bool alone = false);

}  // namespace dp::detect
