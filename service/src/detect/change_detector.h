// EvaluateChange: judges the latest run of one series against the series' own
// baseline (detect/baseline.h). One good run outside the robust band on the
// worse side -> kNeedsConfirmation (the scheduler re-tests soon); the latest
// two consecutive good runs outside -> kSlowdown (throughput drop, access-time
// or latency rise, by the metric's direction). Requiring two independent
// exceedances squares the false-alarm probability of a single run (a
// "2 out of 2" run rule, cf. the Western Electric run rules, Western Electric
// Statistical Quality Control Handbook, 1956). Contended, partial and failed
// runs are skipped: never evidence either way. Pure function, thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"
#include "model/verdict.h"

namespace dp::detect {

// history: the series' samples (any order; sorted by time here), including the
// latest run. baseline_since: unix seconds of the last re-baseline request
// (0 = none); samples before it are ignored.
// Verdict kinds: kInconclusive (latest run not good, or empty history),
// kBaselining (fewer than cfg.baseline_runs good runs so far, or the latest
// run is itself part of the baseline), kClear, kNeedsConfirmation, kSlowdown.
// condition = "slowdown:TEST:SERIES:METRIC" for every kind.
Verdict EvaluateChange(const SeriesKey& key, std::vector<Sample> history,
                       const DetectionConfig& cfg, std::int64_t baseline_since = 0);

}  // namespace dp::detect
