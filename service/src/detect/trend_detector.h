// EvaluateTrend: is a series drifting the wrong way? The slope is the
// Theil-Sen estimator (Theil 1950; Sen 1968) over the good runs of the last
// cfg.trend_window_days, expressed in % of the window's median per month
// (30.44 days); significance is the one-sided Mann-Kendall test (Mann 1945;
// Kendall 1975) at cfg.trend_alpha in the worse direction. A trend is reported
// only when it is significant and the slope's one-sided 95% confidence bound
// (Sen 1968; Gilbert 1987) is at least cfg.trend_min_percent_per_month: a
// statistically real but harmless drift stays quiet, and so does a short,
// noisy window whose point slope happens to reach the minimum (the bound is
// what keeps a test repeated after every run from crying wolf). Contended,
// partial and failed runs are left out. Pure function.
#pragma once

#include <cstdint>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"
#include "model/verdict.h"

namespace dp::detect {

// history: any order. Kinds: kInconclusive (latest run not good / no runs),
// kBaselining (fewer than cfg.trend_min_runs good runs in the window or they
// span less than cfg.trend_min_span_days), kClear, kTrend.
// condition = "trend:TEST:SERIES:METRIC".
Verdict EvaluateTrend(const SeriesKey& key, std::vector<Sample> history, const DetectionConfig& cfg,
                      std::int64_t baseline_since = 0);

}  // namespace dp::detect
