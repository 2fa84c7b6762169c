// Workload: one measured point described as data (fio's job-file idea): where
// on the target, which access pattern, block size, queue depth, budgets. The
// offsets come from a fixed seed, so every run reads the same regions and two
// runs are comparable. OffsetSequence turns a Workload into those offsets.
// Plain value types; an OffsetSequence is used by one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/status.h"

namespace dp {

enum class AccessPattern {
  kSequential,  // region_begin, +block_size, ...; wraps to region_begin at region_end
  kStride,      // like sequential, stepping by `stride` bytes (negative = backwards)
  kRandom,      // uniform over the region, aligned to block_size, from `seed`
  kStroke,      // diskinfo-style seeks: x, x+stroke, x', x'+stroke, ... with x creeping by `stride`
};

struct Workload {
  // Labels carried into the BenchPoint.
  std::string test;                 // "seq", "zones", "seek", "random", "sweep", "parallel"
  std::optional<std::string> zone;  // "outer" | "middle" | "inner" | "0.25"
  std::optional<std::string>
      stroke;  // seek: full | half | quarter | short_forward | short_backward
  std::optional<std::string> variant;

  AccessPattern pattern = AccessPattern::kSequential;
  std::uint32_t block_size = 1 << 20;  // bytes; multiple of the logical block size
  std::uint32_t queue_depth = 1;       // reads in flight (per job)
  std::uint32_t jobs = 1;              // submitting threads (RunWorkloadJobs); 0 = auto
  // The queue depth asked for when the plan clamped it to the device's limit.
  std::optional<std::uint32_t> queue_depth_requested;
  std::uint64_t region_begin = 0;      // reads stay inside [region_begin, region_end)
  std::uint64_t region_end = 0;
  std::int64_t stride = 0;                  // kStride step; kStroke creep per pair
  std::uint64_t stroke_bytes = 0;           // kStroke distance
  std::uint64_t start = 0;                  // kStride: first offset (inside the region)
  std::uint64_t seed = 0x6469736b70756c73;  // kRandom ("diskpuls")

  double seconds = 5;                    // time budget, warm-up included
  std::uint64_t max_bytes = 1ULL << 30;  // byte budget, warm-up included
  std::uint64_t max_ios = 0;             // 0 = no count limit
  double warmup_seconds = 0.5;           // excluded from the figures: until this much time...
  std::uint64_t warmup_bytes = 0;        // ...or this many bytes (0 = time only) have completed

  // Errors (InvalidArgument) name what does not fit: alignment, a region
  // smaller than block_size × queue_depth ("target smaller than the workload").
  Status Validate(std::uint32_t logical_block_size) const;
};

class OffsetSequence {
 public:
  explicit OffsetSequence(const Workload& w);
  std::uint64_t Next();

 private:
  const Workload& w_;
  std::uint64_t span_;      // number of block-size slots in the region
  std::uint64_t next_ = 0;  // kSequential/kStride: next offset
  std::uint64_t rng_;       // kRandom: splitmix64 state
  std::uint64_t pair_ = 0;  // kStroke: pair index
  bool far_ = false;        // kStroke: next read is the far end of the pair
};

}  // namespace dp
