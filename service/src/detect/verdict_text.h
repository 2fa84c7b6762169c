// Small helpers shared by the detectors to write verdict summaries and
// conditions: number formatting with units, metric names for people.
// Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dp::detect {

// "152 MB/s", "8.42 ms", "1250 us", "3.1%": 3 significant digits, unit appended.
std::string FormatValue(double value, std::string_view unit);
// "throughput", "IOPS", "access time", "p99 latency", else the metric name.
std::string MetricNoun(std::string_view metric);
// Joins the non-empty parts with ':' ("slowdown", "seq", "", "mb_per_s" ->
// "slowdown:seq:mb_per_s").
std::string JoinCondition(const std::vector<std::string>& parts);

}  // namespace dp::detect
