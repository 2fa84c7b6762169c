#include "model/zfs_latency.h"

#include <cmath>

namespace dp {

double ZfsBucketUpperSeconds(std::size_t i) {
  return (std::ldexp(1.0, static_cast<int>(i) + 1) - 1.0) * 1e-9;
}

std::optional<double> ZfsHistogramQuantile(const std::vector<std::uint64_t>& counts, double q) {
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  if (total == 0 || !(q > 0) || q > 1) return std::nullopt;
  const double rank = std::ceil(q * static_cast<double>(total));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    seen += counts[i];
    if (static_cast<double>(seen) >= rank) return ZfsBucketUpperSeconds(i);
  }
  return ZfsBucketUpperSeconds(counts.size() - 1);
}

}  // namespace dp
