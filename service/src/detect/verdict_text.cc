#include "detect/verdict_text.h"

#include <cmath>
#include <cstdio>

namespace dp::detect {

std::string FormatValue(double value, std::string_view unit) {
  char buf[64];
  double a = std::fabs(value);
  if (a >= 100 || a == 0)
    std::snprintf(buf, sizeof buf, "%.0f", value);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", value);
  else
    std::snprintf(buf, sizeof buf, "%.2f", value);
  std::string out(buf);
  if (unit == "%") return out + "%";
  if (!unit.empty()) out += " " + std::string(unit);
  return out;
}

std::string MetricNoun(std::string_view metric) {
  if (metric == "mb_per_s") return "throughput";
  if (metric == "iops") return "IOPS";
  if (metric == "access_ms") return "access time";
  if (metric == "p50_us") return "median latency";
  if (metric == "p90_us") return "p90 latency";
  if (metric == "p99_us") return "p99 latency";
  if (metric == "p999_us") return "p99.9 latency";
  if (metric == "max_us") return "max latency";
  if (metric == "mean_us") return "mean latency";
  return std::string(metric);
}

std::string JoinCondition(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) {
    if (p.empty()) continue;
    if (!out.empty()) out += ':';
    out += p;
  }
  return out;
}

}  // namespace dp::detect
