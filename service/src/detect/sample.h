// Sample / SeriesKey / Direction: the input of the detectors. A Sample is one
// value of one metric from one run; a series is all samples of one drive x
// test x zone/workload x metric (SeriesKey). Plain value types.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dp::detect {

struct Sample {
  std::int64_t run_id = 0;
  std::int64_t at = 0;  // unix seconds (the run's start)
  double value = 0;
  bool contended = false;  // foreign I/O during the run: never evidence
  bool partial = false;    // stopped early: never evidence
  bool failed = false;     // the run failed: never evidence
  bool unwritten = false;  // read flash blocks never written: never evidence
  // Recognised afterwards as unseen interference (every read path of the
  // drive worse in its window): still evidence, never part of a baseline.
  bool interfered = false;

  // Only good samples are evidence: contended, partial, failed or unwritten runs are
  // never evidence of slowness, nor of health, and neither is a value that
  // is not a positive finite number (every judged metric is a positive rate
  // or time, judged on its log).
  bool Good() const {
    return !contended && !partial && !failed && !unwritten && std::isfinite(value) &&
           value > 0;
  }
};

// Converts anything with run_id, at, value, contended, partial, unwritten,
// interfered fields (the store's MeasurementSample) to Samples, keeping the
// order.
template <typename T>
std::vector<Sample> ToSamples(const std::vector<T>& in) {
  std::vector<Sample> out;
  out.reserve(in.size());
  for (const auto& s : in) {
    Sample x;
    x.run_id = s.run_id;
    x.at = s.at;
    x.value = s.value;
    x.contended = s.contended;
    x.partial = s.partial;
    x.unwritten = s.unwritten;
    x.interfered = s.interfered;
    out.push_back(x);
  }
  return out;
}

// Chronological order of runs: by time, then run id (stable).
void SortByTime(std::vector<Sample>& history);

// `history` in chronological order with each run id once (the first stored;
// a store read that overlapped can return a run twice, and one run must not
// count as two). Run id 0 (not stored) is never merged.
std::vector<Sample> ChronologicalRuns(std::vector<Sample> history);

// Which way is worse. MB/s and IOPS: lower is worse; latency and access
// time: higher is worse.
enum class Direction { kHigherIsBetter, kLowerIsBetter };

// mb_per_s, iops -> kHigherIsBetter; access_ms, p50_us, p90_us, p99_us,
// p999_us, max_us, mean_us, and anything ending in _ms/_us -> kLowerIsBetter.
// Unknown metrics are treated as higher-is-better.
Direction DirectionOf(std::string_view metric);
// "MB/s", "IOPS", "ms", "us", "".
std::string UnitOf(std::string_view metric);

// How heavy a metric's run-to-run tails are, as the degrees of freedom of a
// Student-t (0 = no heavier than normal). A latency percentile (p99_us, p50_us,
// max_us, ...) is an extreme order statistic of one run, moved whole by a
// burst of retries or housekeeping inside the run: 4. An access time is a mean
// over a few hundred seeks: 10. MB/s and IOPS are means over thousands of
// I/Os, near-normal by the central limit theorem: 0. The bands widen to what
// these tails need (baseline.h), so a p99 series spends no more of the drive's
// false-alert budget than a MB/s series.
double TailDfOf(std::string_view metric);

struct SeriesKey {
  std::string drive_id;
  std::string drive_name;  // for summaries; "" = use drive_id
  std::string test;        // seq, zones, seek, random, sweep, ...
  std::string series;      // zone / workload key, e.g. "outer", "qd1-4k", "full"
  std::string metric;      // mb_per_s, iops, access_ms, p99_us, ...

  std::string Label() const;  // "seq outer mb_per_s"
  std::string Who() const { return drive_name.empty() ? drive_id : drive_name; }
};

}  // namespace dp::detect
