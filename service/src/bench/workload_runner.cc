#include "bench/workload_runner.h"

#include <algorithm>
#include <vector>

#include "bench/aligned_buffer.h"

namespace dp {

Result<WorkloadResult> RunWorkload(IoEngine& engine, const Workload& w,
                                   std::uint32_t logical_block_size, std::size_t alignment,
                                   const Clock& clock, const std::atomic<bool>* cancel,
                                   const ProgressFn& progress) {
  DP_RETURN_IF_ERROR(w.Validate(logical_block_size));
  if (engine.queue_depth() < w.queue_depth)
    return Internal("engine queue depth " + std::to_string(engine.queue_depth()) +
                    " < workload's " + std::to_string(w.queue_depth));
  if (engine.in_flight() != 0) return Internal("engine has reads in flight");

  // One buffer per slot; a slot is free again when its read is reaped.
  std::vector<AlignedBuffer> buffers;
  std::vector<std::uint64_t> slot_offset(w.queue_depth);
  std::vector<std::uint32_t> free_slots;
  for (std::uint32_t i = 0; i < w.queue_depth; ++i) {
    DP_ASSIGN_OR_RETURN(auto b, AlignedBuffer::Allocate(w.block_size, alignment));
    buffers.push_back(std::move(b));
    free_slots.push_back(w.queue_depth - 1 - i);
  }

  OffsetSequence offsets(w);
  WorkloadResult r;
  const MonoTime t0 = clock.Monotonic();
  const auto budget = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(w.seconds));
  const auto warmup = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(w.warmup_seconds));
  bool warm = w.warmup_seconds <= 0 && w.warmup_bytes == 0;
  MonoTime measure_start = t0, last_done = t0;
  std::uint64_t submitted_bytes = 0, submitted_ios = 0;
  bool submitting = true;
  std::vector<IoCompletion> done;
  done.reserve(w.queue_depth);
  double last_progress = -1;
  LatencyHistogram warmup_latency;

  for (;;) {
    while (submitting && !free_slots.empty()) {
      std::uint32_t slot = free_slots.back();
      std::uint64_t off = offsets.Next();
      Status s = engine.Submit({off, w.block_size, buffers[slot].data(), slot});
      if (!s.ok()) {
        r.error = s;
        submitting = false;
        break;
      }
      free_slots.pop_back();
      slot_offset[slot] = off;
      submitted_bytes += w.block_size;
      ++submitted_ios;
      if (submitted_bytes >= w.max_bytes || (w.max_ios && submitted_ios >= w.max_ios))
        submitting = false;
    }
    if (engine.in_flight() == 0) break;

    done.clear();
    auto reaped = engine.Reap(1, std::chrono::milliseconds(100), done);
    if (!reaped.ok()) {
      // The engine itself failed: nothing more can be collected.
      r.error = reaped.status();
      r.partial = true;
      break;
    }
    const MonoTime now = clock.Monotonic();
    for (const IoCompletion& c : done) {
      auto slot = static_cast<std::uint32_t>(c.tag);
      free_slots.push_back(slot);
      if (c.result != static_cast<std::int64_t>(w.block_size)) {
        if (r.error.ok()) {
          const std::string where = "read of " + std::to_string(w.block_size) + " bytes at " +
                                    std::to_string(slot_offset[slot]);
          r.error = c.result < 0 ? ErrnoStatus(static_cast<int>(-c.result), where)
                                 : IoError(where + " returned " + std::to_string(c.result) +
                                           " bytes (device shrank or went away)");
        }
        submitting = false;
        continue;
      }
      r.total_bytes += w.block_size;
      ++r.total_ios;
      last_done = now;
      const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.latency.count()));
      if (warm) {
        r.bytes += w.block_size;
        ++r.ios;
        r.latency.Record(ns);
      } else {
        warmup_latency.Record(ns);
      }
    }
    if (!warm && (now - t0 >= warmup || (w.warmup_bytes && r.total_bytes >= w.warmup_bytes))) {
      warm = true;
      measure_start = now;
    }
    if (now - t0 >= budget) submitting = false;
    if (cancel && cancel->load(std::memory_order_relaxed) && submitting) {
      submitting = false;
      if (r.error.ok()) r.error = Cancelled("cancelled");
    }
    if (progress) {
      double f =
          std::max(std::chrono::duration<double>(now - t0) / std::chrono::duration<double>(budget),
                   static_cast<double>(submitted_bytes) / static_cast<double>(w.max_bytes));
      if (w.max_ios)
        f = std::max(f, static_cast<double>(submitted_ios) / static_cast<double>(w.max_ios));
      f = std::min(1.0, f);
      if (f - last_progress >= 0.01) {
        progress(f);
        last_progress = f;
      }
    }
  }
  if (warm) {
    r.seconds = std::max(0.0, std::chrono::duration<double>(last_done - measure_start).count());
  } else {
    // Never got past the warm-up: report what there is, flagged partial.
    r.bytes = r.total_bytes;
    r.ios = r.total_ios;
    r.latency = warmup_latency;
    r.seconds = std::max(0.0, std::chrono::duration<double>(last_done - t0).count());
  }
  if (!r.error.ok() || !warm || r.ios == 0) r.partial = true;
  if (r.error.ok() && r.partial)
    r.error = ResourceExhausted(
        "the budget ran out before the warm-up ended "
        "(figures include the warm-up)");
  return r;
}

}  // namespace dp
