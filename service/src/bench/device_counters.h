// DeviceCounters: a device's cumulative I/O counters as the kernel keeps them
// (Linux /sys/dev/block/MAJ:MIN/stat, FreeBSD devstat), and the contention
// guard's arithmetic: what share of the I/O seen during a measurement was not
// ours. Plain values and free functions; ReadDeviceCounters is thread-safe.
//
// What the kernel counts, and so what the guard must subtract to be exact:
//  - bytes: every sector of every completed request (exact; no estimate);
//  - requests: one per request after the block layer split our read (at
//    max_sectors_kb, or at max_segments when the buffer's pages are not
//    physically contiguous — so the same 1 MiB read is one request with one
//    buffer and two with another) and before merging; each merged bio is
//    counted in `*_merges` instead. requests + merges is therefore the number
//    of bios after splitting, which is what OwnIoMeter measures for our reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"

namespace dp {

struct DeviceCounters {
  std::uint64_t read_ios = 0;
  std::uint64_t read_merges = 0;  // reads merged into another request (not in read_ios)
  std::uint64_t read_bytes = 0;
  std::uint64_t write_ios = 0;
  std::uint64_t write_merges = 0;
  std::uint64_t write_bytes = 0;
  // Milliseconds the device had I/O in flight (Linux io_ticks, like iostat
  // %util; FreeBSD devstat busy_time); nullopt where not kept.
  std::optional<std::uint64_t> busy_ms;
  // Largest read that is one request whatever its buffer's pages
  // (min(max_sectors, max_segments x page)); 0 when unknown.
  std::uint64_t unsplit_bytes = 0;
  // Largest request the device takes (max_sectors_kb); 0 when unknown.
  std::uint64_t max_request_bytes = 0;

  // Reads and writes as bios after splitting, before merging.
  std::uint64_t read_units() const { return read_ios + read_merges; }
  std::uint64_t write_units() const { return write_ios + write_merges; }
};

// Reads the counters of the device named by BlockDevice::stats_key()
// (device_counters_<os>.cc). NotFound when the device has no counters.
Result<DeviceCounters> ReadDeviceCounters(const std::string& stats_key);

#ifdef __linux__
// The sysfs folder of the block device "MAJ:MIN": /sys/dev/block/MAJ:MIN,
// else (Podman masks /sys/dev/block in containers) the /sys/class/block
// entry whose `dev` file names it. Thread-safe.
std::string SysfsBlockDir(const std::string& maj_min);
#endif

// Our own I/O during a measurement, as the kernel counted it (OwnIoMeter).
struct OwnIo {
  std::uint64_t reads = 0;     // read calls we made (warm-up and calibration included)
  std::uint64_t bytes = 0;     // bytes those reads returned
  std::uint64_t requests = 0;  // the kernel's requests + merges for them (splits included)
};

struct ForeignIo {
  std::uint64_t bytes = 0;           // bytes read or written by others
  std::uint64_t ios = 0;             // requests (+ merges) by others
  std::uint64_t device_bytes = 0;    // the counters' growth, reads + writes
  std::uint64_t device_ios = 0;      // likewise in requests + merges
  double share = 0;  // 0..1: the larger of the foreign byte share and request share

  // Whether the point was contended: a share above `threshold` that is more
  // than a stray request or two. udev's probe of a device, a monitoring
  // tool's identify read or the kernel's own partition scan is a request or
  // two of a few KiB; in a point of a dozen reads (a short seek or sweep
  // point) one of them alone is 6% of the requests, yet it cannot move a
  // median, and flagging such a point would throw away an honest run.
  bool Contends(double threshold) const;
};

// Foreign = the counters' growth over the window minus our own I/O in the
// same window; every write is foreign (we never write). The share is taken
// both by bytes and by requests, because a small random reader disturbs a
// streaming benchmark far beyond its bytes, and a streaming one a random
// benchmark far beyond its requests. Foreign read requests are at most the
// foreign read bytes over 512 (a request is a sector or more): the rest of
// the requests beyond ours are our own reads split more than OwnIoMeter
// measured for their buffer.
ForeignIo EstimateForeignIo(const DeviceCounters& before, const DeviceCounters& after,
                            const OwnIo& own);

// Share 0..1 of a window of `seconds` the device was busy with I/O, from
// busy time where the platform keeps it; else from the requests seen, at
// ~100 a second counted as fully busy (a disk's random-read rate). For a
// window with no I/O of ours (the idle check before a run).
double BusyShare(const DeviceCounters& before, const DeviceCounters& after, double seconds);

}  // namespace dp
