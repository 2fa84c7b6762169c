#include "bench/unwritten_region.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "bench/aligned_buffer.h"

namespace dp {
namespace {

// Larger buffers are checked at their start, middle and end (a never-written
// flash block is zero throughout; real data is not zero at all three).
constexpr std::size_t kZeroCheckSpan = 4096;

bool AllZero(const std::byte* p, std::size_t n) {
  // Word-wise OR (the compiler vectorises it); n is a multiple of 512.
  std::uint64_t acc = 0;
  for (std::size_t i = 0; i < n; i += sizeof acc) {
    std::uint64_t v;
    std::memcpy(&v, p + i, sizeof v);
    acc |= v;
  }
  return acc == 0;
}

}  // namespace

bool BufferAllZero(const std::byte* p, std::size_t n) {
  if (n <= 4 * kZeroCheckSpan) return AllZero(p, n);
  const std::size_t mid = (n / 2) & ~(kZeroCheckSpan - 1);
  return AllZero(p, kZeroCheckSpan) && AllZero(p + mid, kZeroCheckSpan) &&
         AllZero(p + n - kZeroCheckSpan, kZeroCheckSpan);
}

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

Result<std::uint64_t> WrittenSeqStart(IoEngine& engine, const DeviceInfo& device,
                                      std::size_t alignment, std::uint32_t block_size) {
  constexpr std::uint64_t kSlices = 8;
  constexpr std::uint64_t kProbes = 8;
  constexpr std::uint64_t kMostZero = 2;
  constexpr auto kProbeTimeout = std::chrono::seconds(30);
  if (device.rotational.value_or(false) || !engine.returns_data()) return 0;
  const std::uint64_t unit = std::max<std::uint64_t>(4096, device.logical_block_size);
  const std::uint64_t step = std::max<std::uint64_t>(unit, block_size);
  const std::uint64_t slice = device.size_bytes / kSlices / step * step;
  if (slice < kProbes * unit) return 0;
  DP_ASSIGN_OR_RETURN(AlignedBuffer buffer, AlignedBuffer::Allocate(unit, alignment));
  std::uint64_t best = 0, best_zero = kProbes + 1;
  for (std::uint64_t s = 0; s < kSlices; ++s) {
    std::uint64_t zero = 0;
    for (std::uint64_t p = 0; p < kProbes; ++p) {
      const std::uint64_t at = s * slice + (2 * p + 1) * slice / (2 * kProbes) / unit * unit;
      DP_RETURN_IF_ERROR(engine.Submit({at, static_cast<std::uint32_t>(unit), buffer.data(), p}));
      std::vector<IoCompletion> done;
      DP_ASSIGN_OR_RETURN(std::size_t n, engine.Reap(1, kProbeTimeout, done));
      if (n == 0 || done.empty()) return IoError("a probe read did not complete within 30 s");
      if (done.front().result != static_cast<std::int64_t>(unit))
        return IoError("probe read at " + std::to_string(at) + " failed");
      if (BufferAllZero(buffer.data(), unit)) ++zero;
    }
    if (zero <= kMostZero) return s * slice;
    if (zero < best_zero) {
      best_zero = zero;
      best = s * slice;
    }
  }
  return best;
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
