#include "bench/unwritten_region.h"

#include <algorithm>
#include <cstdio>

namespace dp {

std::optional<std::string> UnwrittenReason(const Workload& w, const WorkloadResult& r,
                                           const DeviceInfo& device) {
  constexpr std::uint64_t kMinChecked = 8;
  constexpr double kZeroShare = 0.99;
  constexpr double kNandFloorUs = 20;
  constexpr double kBytesPerUs = 16000;  // 16 GB/s
  if (device.rotational.value_or(false)) return std::nullopt;
  if (r.checked_reads < kMinChecked || r.latency.count() == 0) return std::nullopt;
  if (static_cast<double>(r.zero_reads) < kZeroShare * static_cast<double>(r.checked_reads))
    return std::nullopt;
  const double fast_us = r.latency.ValueAtQuantile(0.01) / 1e3;
  const double floor_us = kNandFloorUs + static_cast<double>(w.block_size) / kBytesPerUs;
  char speed[128];
  if (fast_us < floor_us)
    std::snprintf(speed, sizeof speed, "1%% of reads within %.1f us, faster than flash's %.0f us",
                  fast_us, floor_us);
  else
    std::snprintf(speed, sizeof speed, "1%% of reads within %.1f us", fast_us);
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "%llu of %llu checked reads returned only zeros (%s): a region never written "
                "or trimmed",
                static_cast<unsigned long long>(r.zero_reads),
                static_cast<unsigned long long>(r.checked_reads), speed);
  return std::string(buf);
}

void AnnotatePoint(const Workload& w, const WorkloadResult& r, const DeviceInfo& device,
                   BenchPoint& point) {
  point.jobs = r.jobs;
  point.queue_depth_requested = w.queue_depth_requested;
  if (auto why = UnwrittenReason(w, r, device)) {
    point.unwritten = true;
    point.unwritten_reason = std::move(*why);
  }
}

}  // namespace dp
