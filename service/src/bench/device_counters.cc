#include "bench/device_counters.h"

#include <algorithm>

namespace dp {
namespace {

std::uint64_t Grown(std::uint64_t a, std::uint64_t b) { return b >= a ? b - a : 0; }
std::uint64_t Less(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; }
double Share(std::uint64_t part, std::uint64_t whole) {
  return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0;
}

}  // namespace

ForeignIo EstimateForeignIo(const DeviceCounters& before, const DeviceCounters& after,
                            const OwnIo& own) {
  const std::uint64_t read_bytes = Grown(before.read_bytes, after.read_bytes);
  const std::uint64_t read_units = Grown(before.read_units(), after.read_units());
  const std::uint64_t write_bytes = Grown(before.write_bytes, after.write_bytes);
  const std::uint64_t write_units = Grown(before.write_units(), after.write_units());
  ForeignIo f;
  f.bytes = Less(read_bytes, own.bytes) + write_bytes;
  // A foreign read carries at least one 512-byte sector, so foreign read
  // requests are never more than the foreign read bytes allow: requests the
  // kernel counted beyond ours with no bytes beyond ours are our own reads,
  // split more than the meter measured when it calibrated their buffer (its
  // pages moved since; an idle loop device's whole run was seen 0.6-1.2%
  // over, and a seq point then read as 6% foreign).
  constexpr std::uint64_t kSector = 512;
  f.ios = std::min(Less(read_units, own.requests), Less(read_bytes, own.bytes) / kSector) +
          write_units;
  // The whole is ours plus theirs, so that a window the counters under-report
  // (a device that vanished mid-point) never gives a share above 1.
  f.device_bytes = read_bytes + write_bytes;
  f.device_ios = read_units + write_units;
  f.share = std::max(Share(f.bytes, f.bytes + own.bytes), Share(f.ios, f.ios + own.requests));
  return f;
}

bool ForeignIo::Contends(double threshold) const {
  constexpr std::uint64_t kStrayRequests = 2;
  constexpr std::uint64_t kStrayBytes = 256 * 1024;
  if (ios <= kStrayRequests && bytes <= kStrayBytes) return false;
  return share > threshold;
}

double BusyShare(const DeviceCounters& before, const DeviceCounters& after, double seconds) {
  if (!(seconds > 0)) return 0;
  double share;
  if (before.busy_ms && after.busy_ms) {
    share = static_cast<double>(Grown(*before.busy_ms, *after.busy_ms)) / (seconds * 1000);
  } else {
    const std::uint64_t ios = Grown(before.read_units(), after.read_units()) +
                              Grown(before.write_units(), after.write_units());
    share = static_cast<double>(ios) / (seconds * 100);
  }
  return std::clamp(share, 0.0, 1.0);
}

}  // namespace dp
