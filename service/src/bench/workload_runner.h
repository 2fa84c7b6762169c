// RunWorkload: drives one IoEngine through one Workload and measures it:
// keeps queue_depth reads in flight, excludes the warm-up, stops at the time
// budget, the byte budget, a read error or a cancel request, and records each
// read's latency in a LatencyHistogram. Runs on the caller's thread.
//
// RunWorkloadJobs: the same with `w.jobs` submitting threads (fio's numjobs),
// each with its own engine, reported as one result: the jobs share the byte
// and count budgets (a read is claimed before it is submitted, so together they
// never read more than the budget) and the time budget; sequential jobs each
// read their own slice of the region, random jobs their own seed over the whole
// region. jobs == 0 ("auto") picks the count from a short probe (see below).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "base/clock.h"
#include "base/progress.h"
#include "bench/io_engine.h"
#include "bench/latency_histogram.h"
#include "bench/workload.h"

namespace dp {

struct WorkloadResult {
  std::uint64_t bytes = 0;        // measured (after warm-up)
  std::uint64_t ios = 0;          // measured reads
  double seconds = 0;             // measured window: warm-up end to last completion
  LatencyHistogram latency;       // measured reads
  std::uint64_t total_bytes = 0;  // every completed read, warm-up included
  std::uint64_t total_ios = 0;    // (our own I/O, for the contention guard)
  bool partial = false;           // ended by an error or cancel, or never got past warm-up
  Status error;                   // why it ended early; OK otherwise
  std::uint32_t jobs = 1;         // submitting threads that ran (auto and clamps resolved)
  // Unwritten-region evidence: reads whose data was checked (the first 64, then every 8th) and
  // how many of them were all zero (see unwritten_region.h).
  std::uint64_t checked_reads = 0;
  std::uint64_t zero_reads = 0;

  double mb_per_s() const { return seconds > 0 ? bytes / seconds / 1e6 : 0; }
  double iops() const { return seconds > 0 ? ios / seconds : 0; }
};

// The engine must have queue_depth >= w.queue_depth and nothing in flight.
// `alignment`: buffer address alignment (BlockDevice::buffer_alignment()).
// `cancel` (may be null) is polled at least every ~100 ms of waiting.
// Errors (as a Status, nothing measured): the workload does not validate or
// buffers cannot be allocated. Read errors and cancels come back as a partial
// WorkloadResult with `error` set. w.jobs is ignored (one job).
Result<WorkloadResult> RunWorkload(IoEngine& engine, const Workload& w,
                                   std::uint32_t logical_block_size, std::size_t alignment,
                                   const Clock& clock, const std::atomic<bool>* cancel,
                                   const ProgressFn& progress);

// Builds one engine of the given queue depth; called on the job's own thread
// (an io_uring ring belongs to the thread that uses it), one call at a time.
using EngineFactory = std::function<Result<std::unique_ptr<IoEngine>>(std::uint32_t queue_depth)>;

// Most submitting threads a point may use.
constexpr std::uint32_t kMaxJobs = 64;

// w.jobs threads (clamped to what the pattern allows: seek strokes and
// strides are one job; sequential slices must hold block_size x queue_depth;
// the result's `jobs` says what ran). w.jobs == 0: `auto` — probe 1, 2, 4 ...
// jobs (up to the CPU count) for ~5% of the time budget each, keep doubling
// while IOPS grow by more than 10%; the probes' reads count against the byte
// budget (and the contention guard's totals) but not the figures.
// Errors as RunWorkload, and those of the factory.
Result<WorkloadResult> RunWorkloadJobs(const EngineFactory& make_engine, const Workload& w,
                                       std::uint32_t logical_block_size, std::size_t alignment,
                                       const Clock& clock, const std::atomic<bool>* cancel,
                                       const ProgressFn& progress);

}  // namespace dp
