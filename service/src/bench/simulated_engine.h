// SimulatedDrive + SimulatedEngine: a modelled drive for fast, deterministic
// tests of everything above the engine (workloads, runner, detection).
//
// The model (all times in the drive's own virtual time, on a FakeClock):
//  - zones: the sequential rate falls from outer_mb_per_s at offset 0 to
//    inner_mb_per_s at the last byte, following the track radius (constant
//    areal density: rate ∝ r, and capacity fraction f maps to
//    r = sqrt(1 - f (1 - k²)) with k = inner/outer), like a real HDD;
//  - seeks: track_to_track_ms + (full_stroke_ms - track_to_track_ms) · sqrt(d/size)
//    for a head move of d bytes, plus a rotational delay uniform in
//    [0, 60000/rpm) ms; a read that starts where the last one ended is
//    sequential (no seek, no rotation);
//  - per-read command overhead; deterministic ±jitter from `seed`;
//  - NCQ: with several reads queued, the nearest one is served first (SSTF);
//  - slow regions (transfer × slowdown + extra latency, e.g. retries on weak
//    sectors) and error regions (reads touching them fail with EIO after
//    error_latency_ms);
//  - throughput_scale and gradual decay: every rate is multiplied by
//    throughput_scale · (1 - decay_per_age)^age; AdvanceAge moves a drive on
//    between runs, so a detector test can build a slowly failing drive.
// Same drive + same seed + same requests => identical completions and times.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "base/fake_clock.h"
#include "bench/io_engine.h"
#include "model/bench_result.h"

namespace dp {

struct SimulatedRegion {
  std::uint64_t begin = 0;      // bytes, inclusive
  std::uint64_t end = 0;        // bytes, exclusive
  double slowdown = 1;          // slow regions: transfer time multiplied by this
  double extra_latency_ms = 0;  // slow regions: added to every read touching the region
};

struct SimulatedDrive {
  std::uint64_t size_bytes = 1'000'000'000'000;  // 1 TB
  std::uint32_t logical_block_size = 512;
  std::uint32_t physical_block_size = 4096;
  bool rotational = true;
  double outer_mb_per_s = 200;      // sequential rate at offset 0 (10^6 bytes/s)
  double inner_mb_per_s = 100;      // sequential rate at the last byte
  double rpm = 7200;                // 0 = no rotational delay (SSD)
  double track_to_track_ms = 0.8;   // shortest seek
  double full_stroke_ms = 16;       // seek across the whole surface
  double command_overhead_us = 20;  // every read, sequential ones too
  double error_latency_ms = 500;    // time a read into an error region takes to fail
  bool ncq = true;                  // serve the nearest queued read first when QD > 1
  double jitter = 0.02;             // each service time × (1 ± jitter), uniform
  std::uint64_t seed = 1;           // seeds rotation and jitter
  std::vector<SimulatedRegion> slow_regions;
  std::vector<SimulatedRegion> error_regions;
  double throughput_scale = 1.0;  // multiplies every transfer rate
  double decay_per_age = 0;       // per unit of age, rates × (1 - decay_per_age)
  double age = 0;                 // see AdvanceAge

  // A 7200 rpm 1 TB disk (the defaults) and a SATA SSD (520 MB/s flat, 60 µs access).
  static SimulatedDrive Hdd();
  static SimulatedDrive Ssd();

  // Moves the drive on by `units` of age (e.g. one per simulated month).
  void AdvanceAge(double units) { age += units; }

  // Sequential transfer rate at offset (10^6 bytes/s): zone, scale and decay
  // applied, slow regions not.
  double TransferRateAt(std::uint64_t offset) const;
  // Seek time for a head move of `distance` bytes; 0 for 0.
  double SeekMs(std::uint64_t distance) const;
  // Mean rotational delay (half a revolution), ms.
  double MeanRotationMs() const { return rpm > 0 ? 30000.0 / rpm : 0; }
  // The geometry a BlockDevice would report.
  DeviceInfo Info() const;
  // Errors: InvalidArgument naming the bad field.
  Status Validate() const;
};

// Owned by one runner thread. Reap advances `clock` to the time the awaited
// reads complete (it never sleeps). The clock must outlive the engine.
class SimulatedEngine final : public IoEngine {
 public:
  SimulatedEngine(SimulatedDrive drive, std::uint32_t queue_depth, FakeClock& clock);

  std::string_view name() const override { return "simulated"; }
  // A modelled drive has no data: buffers are left as they were.
  bool returns_data() const override { return false; }
  std::uint32_t queue_depth() const override { return queue_depth_; }
  Status Submit(const IoRequest& request) override;
  Result<std::size_t> Reap(std::size_t min_complete, std::chrono::nanoseconds timeout,
                           std::vector<IoCompletion>& out) override;
  std::uint32_t in_flight() const override { return in_flight_; }
  std::uint32_t max_concurrency_seen() const override { return max_in_flight_; }

 private:
  struct Op {
    IoRequest request;
    MonoTime submitted;
    MonoTime done{};
    std::int64_t result = 0;
  };
  // Picks and serves the next queued read (device time starts at busy_until_).
  void StartNext();
  double ServiceMs(const IoRequest& r, bool& error);
  bool Touches(const SimulatedRegion& reg, const IoRequest& r) const;

  SimulatedDrive drive_;
  const std::uint32_t queue_depth_;
  FakeClock& clock_;
  std::mt19937_64 rng_;
  std::deque<Op> pending_;
  std::optional<Op> current_;
  MonoTime busy_until_{};
  std::uint64_t head_ = 0;
  std::uint32_t in_flight_ = 0, max_in_flight_ = 0;
};

}  // namespace dp
