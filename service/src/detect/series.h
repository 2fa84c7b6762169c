// Series: which comparable figures a run produced and how to judge them.
// A series is one metric of one drive x test x zone/stroke/variant x block
// size x queue depth; SeriesOf lists the series a BenchPoint contributes to
// (with the fields a store history query needs), and EvaluateSeries runs the
// own-history detectors (change, trend) on one series. The scheduler calls
// these after each run; peers and SMART have their own entry points
// (peer_detector.h, smart_detector.h, pool_detector.h). Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/alerts_config.h"
#include "detect/baseline.h"
#include "detect/sample.h"
#include "model/bench_result.h"
#include "model/verdict.h"

namespace dp::detect {

struct SeriesSpec {
  SeriesKey key;  // key.series is a readable name, e.g. "outer", "qd1-4k"
  // The exact point identity, for Store::History (HistoryQuery has the same
  // fields): a series never mixes block sizes, queue depths, zones or strokes.
  std::string zone, stroke, variant;
  std::uint32_t block_size = 0, queue_depth = 0;
};

// "qd8-1m", "outer", "full", "alone:/dev/sdb qd1-1m", ... ; stable for a point
// shape. The one name of a series: alert conditions, verdicts, the history
// endpoint and the page's chart legends all use it.
std::string SeriesName(const BenchPoint& p);
std::string SeriesName(const std::string& test, const std::string& zone, const std::string& stroke,
                       const std::string& variant, std::uint32_t block_size,
                       std::uint32_t queue_depth);

// The metrics judged for a point: seq/zones/sweep/parallel/pool-write ->
// mb_per_s (+ p99_us when latency is known for pool-write); random -> iops and
// p99_us; seek -> access_ms. Points that are partial still produce specs
// (their samples are marked and skipped by the detectors).
std::vector<SeriesSpec> SeriesOf(const std::string& drive_id, const std::string& drive_name,
                                 const BenchPoint& p);

// The figure a point gives a metric (mb_per_s, iops, access_ms, p99_us), as
// the store keeps it: nullopt where the point did not measure it (a
// throughput or IOPS of 0, no access time, no latency).
std::optional<double> FigureOf(const BenchPoint& p, const std::string& metric);

// True when b is another series of a's noise family (baseline.h, SpreadPrior):
// the same metric of the same drive, from a test that reads the drive the
// same way (SameReadPath: the zones and seq share one path, each other test
// is its own), and not a itself. Latency percentiles have no family: with
// tails of 3-5 degrees of freedom a sample variance is erratic (one wild run
// of one member set a p99 pair's pooled CV to 5.6% against 3.0% of its
// own), and their bands are set by the tails (TailDfOf), not by the
// baseline's degrees of freedom, so pooling would only spread that error.
bool SameNoiseFamily(const SeriesKey& a, const SeriesKey& b);

// The name of the joint series of a test whose points read one surface
// together ("combined" for zones: outer, middle and inner), and whether a test has
// one.
inline constexpr const char* kJointSeries = "combined";
bool HasJointSeries(const std::string& test);

// A test's joint series from its members' histories: one sample per run that
// measured every member, its value the geometric mean of theirs (the mean of
// their logs, which is what the detectors judge). A run with any member not
// good (contended, partial, failed, unwritten, not positive) is not good.
// The members' own noise partly averages out (three zones of CV 3% give a
// joint series of about 2.5% with the shared weekly and seasonal parts), so
// a drop of the whole surface is seen sooner than on any one zone, and it is
// one series: one alert for one event.
std::vector<Sample> JointSamples(const std::vector<std::vector<Sample>>& members);

// The spread a joint series cannot be below (SpreadPrior::floor_log_sd; not
// pooled: its noise is below each member's by design). Its log is the mean
// of k members' logs, so its variance is the members' mean variance over k
// plus their covariances, which a shared environment makes positive: at
// least the members' pooled sd (PoolSpread of their own baselines) over
// sqrt(k). A young joint baseline can measure far less by chance (6 runs
// at 2.5% where its members' 10% noise implies 5.8%), and a CUSUM then sums
// ordinary runs against it as if they were a change. members_own: each member's baseline formed
// from its own runs (no prior), as PoolSpread takes them; members without a
// formed baseline give no floor. floor_df is the members' pooled degrees of
// freedom: a joint series not noisier than its floor is judged with them
// besides its own (Baseline::floor_df), so a young joint baseline's bands
// are about as narrow as its members' noise allows.
SpreadPrior JointSpreadFloor(const std::vector<Baseline>& members_own);

// Change and trend verdicts for one series (history in any order, latest run
// included). baseline_since: the re-baseline time for this drive (0 = none);
// prior: its family's pooled spread (PoolSpread of the other members'
// baselines, each formed without a prior).
std::vector<Verdict> EvaluateSeries(const SeriesKey& key, const std::vector<Sample>& history,
                                    const DetectionConfig& cfg, std::int64_t baseline_since = 0,
                                    const SpreadPrior& prior = {});

}  // namespace dp::detect
