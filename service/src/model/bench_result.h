// BenchPoint / BenchReport: what one measurement run produced, in the shape of
// the `diskpulse bench --json` contract and the store's
// runs/measurements/histograms tables. Plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dp {

struct LatencySummary {
  double p50_us = 0, p90_us = 0, p99_us = 0, p999_us = 0, max_us = 0, mean_us = 0;
};

struct BenchPoint {
  std::string test;                    // seq | zones | seek | random | sweep | pool-write | parallel
  std::uint32_t block_size = 0;
  std::uint32_t queue_depth = 0;
  std::optional<std::string> zone;     // "outer" | "middle" | "inner" | "0.25" (fraction)
  std::optional<std::string> stroke;   // seek: full | half | quarter | short_forward | short_backward
  std::optional<std::string> variant;  // free-form sub-case: "alone:/dev/x", "together", "fsync"
  std::uint64_t bytes = 0;
  double seconds = 0;
  double mb_per_s = 0;                 // 10^6 bytes/s
  double iops = 0;
  std::optional<double> access_ms;     // seek only
  std::optional<LatencySummary> latency;
  std::string histogram;               // encoded mergeable histogram (bench module's format)
  bool contended = false;
  double foreign_share = 0;            // foreign I/O / all I/O on the device during the point
  // The contention guard's accounting over the point's window (warm-up
  // included): our own reads as the kernel counts them, and the device's
  // counters' growth (reads + writes), in bytes and in requests + merges.
  // All 0 where the device keeps no counters.
  std::uint64_t own_bytes = 0, own_requests = 0;
  std::uint64_t device_bytes = 0, device_requests = 0;
  bool partial = false;                // stopped early (error, budget exhausted before warm-up end)
  // Read blocks the flash never wrote (all zeros, faster than flash): says
  // nothing about the drive, never evidence (bench/unwritten_region.h).
  bool unwritten = false;
  std::string unwritten_reason;        // "" unless unwritten
  std::uint32_t jobs = 1;              // submitting threads that ran
  // seq on flash: where the point started when the device's first eighth held
  // no data and a later one did (bench/unwritten_region.h); 0 otherwise.
  std::uint64_t region_offset = 0;
  // Set when the queue depth asked for was above the device's limit and was
  // clamped to it (queue_depth is then what ran).
  std::optional<std::uint32_t> queue_depth_requested;
};

struct DeviceInfo {
  std::uint64_t size_bytes = 0;
  std::uint32_t logical_block_size = 512;
  std::uint32_t physical_block_size = 512;
  std::optional<bool> rotational;
  // Most requests the device queues at once (Linux queue/nr_requests); unset when unknown.
  std::optional<std::uint32_t> max_queue_depth;
};

struct BenchReport {
  std::string target;
  DeviceInfo device;
  std::string engine;                  // "uring" | "pread" | "simulated"
  std::vector<BenchPoint> results;
  bool partial = false;
  std::string error;                   // why the run ended early, "" when whole
  // Foreign reads+writes per second on the device in the idle check just
  // before the run (contention guard); unset when not checked.
  std::optional<double> foreign_iops_before;
  // Share 0..1 of that check's window the device was busy (foreign I/O), and
  // whether that was above the busy threshold: the run is then contended.
  std::optional<double> busy_before;
  bool contended_before = false;
};

}  // namespace dp
