// DeviceCounters: a device's cumulative I/O counters as the kernel keeps them
// (Linux /sys/dev/block/MAJ:MIN/stat, FreeBSD devstat), and the contention
// guard's arithmetic: what share of the I/O seen during a measurement was not ours.
// Plain values and free functions; ReadDeviceCounters is thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace dp {

struct DeviceCounters {
  std::uint64_t read_ios = 0;
  std::uint64_t read_bytes = 0;
  std::uint64_t write_ios = 0;
  std::uint64_t write_bytes = 0;
  // Largest request the kernel sends to the device (larger reads are split and
  // counted as several); 0 when unknown.
  std::uint64_t max_request_bytes = 0;
};

// Reads the counters of the device named by BlockDevice::stats_key()
// (device_counters_<os>.cc). NotFound when the device has no counters.
Result<DeviceCounters> ReadDeviceCounters(const std::string& stats_key);

// Our own I/O during a measurement, as the kernel will count it.
struct OwnIo {
  std::uint64_t reads = 0;  // read requests we issued
  std::uint64_t bytes = 0;  // bytes we read
  std::uint32_t block_size = 0;
};

struct ForeignIo {
  std::uint64_t bytes = 0;  // bytes read or written by others
  std::uint64_t ios = 0;    // requests by others
  double share = 0;         // 0..1: the larger of the foreign byte share and request share
};

// Foreign = the counters' growth minus our own reads (each of ours counted as
// ceil(block_size / max_request_bytes) requests); every write is foreign (we
// never write). The share is taken both by bytes and by requests, because a
// small random reader disturbs a streaming benchmark far beyond its bytes.
ForeignIo EstimateForeignIo(const DeviceCounters& before, const DeviceCounters& after,
                            const OwnIo& own);

}  // namespace dp
