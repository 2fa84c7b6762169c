// RunWorkload: drives one IoEngine through one Workload and measures it:
// keeps queue_depth reads in flight, excludes the warm-up, stops at the time
// budget, the byte budget, a read error or a cancel request, and records each
// read's latency in a LatencyHistogram. Runs on the caller's thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "base/clock.h"
#include "bench/io_engine.h"
#include "bench/latency_histogram.h"
#include "bench/workload.h"

namespace dp {

// Progress of a workload or a whole run, 0..1. Called on the running thread.
using ProgressFn = std::function<void(double fraction)>;

struct WorkloadResult {
  std::uint64_t bytes = 0;        // measured (after warm-up)
  std::uint64_t ios = 0;          // measured reads
  double seconds = 0;             // measured window: warm-up end to last completion
  LatencyHistogram latency;       // measured reads
  std::uint64_t total_bytes = 0;  // every completed read, warm-up included
  std::uint64_t total_ios = 0;    // (our own I/O, for the contention guard)
  bool partial = false;           // ended by an error or cancel, or never got past warm-up
  Status error;                   // why it ended early; OK otherwise

  double mb_per_s() const { return seconds > 0 ? bytes / seconds / 1e6 : 0; }
  double iops() const { return seconds > 0 ? ios / seconds : 0; }
};

// The engine must have queue_depth >= w.queue_depth and nothing in flight.
// `alignment`: buffer address alignment (BlockDevice::buffer_alignment()).
// `cancel` (may be null) is polled at least every ~100 ms of waiting.
// Errors (as a Status, nothing measured): the workload does not validate or
// buffers cannot be allocated. Read errors and cancels come back as a partial
// WorkloadResult with `error` set.
Result<WorkloadResult> RunWorkload(IoEngine& engine, const Workload& w,
                                   std::uint32_t logical_block_size, std::size_t alignment,
                                   const Clock& clock, const std::atomic<bool>* cancel,
                                   const ProgressFn& progress);

}  // namespace dp
