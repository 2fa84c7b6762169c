#include "bench/device_counters.h"

#include <algorithm>

namespace dp {

ForeignIo EstimateForeignIo(const DeviceCounters& before, const DeviceCounters& after,
                            const OwnIo& own) {
  auto delta = [](std::uint64_t a, std::uint64_t b) { return b >= a ? b - a : 0; };
  std::uint64_t split = 1;
  if (after.max_request_bytes > 0 && own.block_size > after.max_request_bytes)
    split = (own.block_size + after.max_request_bytes - 1) / after.max_request_bytes;
  const std::uint64_t own_requests = own.reads * split;

  const std::uint64_t read_bytes = delta(before.read_bytes, after.read_bytes);
  const std::uint64_t read_ios = delta(before.read_ios, after.read_ios);
  ForeignIo f;
  f.bytes = (read_bytes > own.bytes ? read_bytes - own.bytes : 0) +
            delta(before.write_bytes, after.write_bytes);
  f.ios = (read_ios > own_requests ? read_ios - own_requests : 0) +
          delta(before.write_ios, after.write_ios);
  double by_bytes =
      f.bytes ? static_cast<double>(f.bytes) / static_cast<double>(f.bytes + own.bytes) : 0;
  double by_ios =
      f.ios ? static_cast<double>(f.ios) / static_cast<double>(f.ios + own_requests) : 0;
  f.share = std::max(by_bytes, by_ios);
  return f;
}

}  // namespace dp
