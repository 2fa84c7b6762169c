#include "bench/workload.h"

#include <string>

namespace dp {
namespace {

// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, identical on every platform.
std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string Name(const Workload& w) {
  std::string n = w.test;
  if (w.zone) n += " " + *w.zone;
  if (w.stroke) n += " " + *w.stroke;
  return n;
}

}  // namespace

Status Workload::Validate(std::uint32_t lbs) const {
  const std::string n = Name(*this);
  if (block_size == 0 || block_size % lbs)
    return InvalidArgument(n + ": block size " + std::to_string(block_size) +
                           " is not a multiple of the device's block size " + std::to_string(lbs));
  if (queue_depth == 0 || queue_depth > 1024)
    return InvalidArgument(n + ": queue depth must be between 1 and 1024");
  if (region_begin % lbs || region_end % lbs) return InvalidArgument(n + ": unaligned region");
  const std::uint64_t len = region_end > region_begin ? region_end - region_begin : 0;
  const std::uint64_t need = static_cast<std::uint64_t>(block_size) *
                                 (pattern == AccessPattern::kSequential ? queue_depth : 1) +
                             (pattern == AccessPattern::kStroke ? stroke_bytes : 0);
  if (len < need)
    return InvalidArgument("target smaller than the workload: " + n + " needs " +
                           std::to_string(need) + " bytes, the target has " + std::to_string(len));
  if ((pattern == AccessPattern::kStride || pattern == AccessPattern::kStroke) && stride % lbs)
    return InvalidArgument(n + ": stride is not a multiple of the block size");
  if (!(seconds > 0)) return InvalidArgument(n + ": time budget must be > 0");
  if (max_bytes < block_size) return InvalidArgument(n + ": byte budget below one block");
  return Status::Ok();
}

OffsetSequence::OffsetSequence(const Workload& w) : w_(w), rng_(w.seed) {
  const std::uint64_t len = w.region_end - w.region_begin;
  span_ = len / w.block_size;
  next_ = w.pattern == AccessPattern::kStride ? w.start : w.region_begin;
}

std::uint64_t OffsetSequence::Next() {
  const std::uint64_t bs = w_.block_size;
  const std::uint64_t last = w_.region_end - bs;  // highest valid offset
  switch (w_.pattern) {
    case AccessPattern::kSequential: {
      if (next_ > last) next_ = w_.region_begin;
      std::uint64_t o = next_;
      next_ += bs;
      return o;
    }
    case AccessPattern::kStride: {
      std::uint64_t o = next_;
      std::int64_t n = static_cast<std::int64_t>(next_) + w_.stride;
      if (n < static_cast<std::int64_t>(w_.region_begin)) n = static_cast<std::int64_t>(last);
      if (n > static_cast<std::int64_t>(last)) n = static_cast<std::int64_t>(w_.region_begin);
      next_ = static_cast<std::uint64_t>(n);
      return o;
    }
    case AccessPattern::kRandom: {
      // Multiply-shift maps 64 random bits onto [0, span) without modulo bias worth noting.
      unsigned __int128 r = static_cast<unsigned __int128>(SplitMix64(rng_)) * span_;
      return w_.region_begin + static_cast<std::uint64_t>(r >> 64) * bs;
    }
    case AccessPattern::kStroke: {
      // The near end creeps forward by `stride` each pair (so no read hits the
      // drive's cache), wrapping inside the room the stroke leaves.
      const std::uint64_t room = last - w_.region_begin - w_.stroke_bytes;  // >= 0 (Validate)
      const std::uint64_t creep =
          static_cast<std::uint64_t>(w_.stride < 0 ? -w_.stride : w_.stride);
      std::uint64_t x = w_.region_begin + (room ? (pair_ * creep) % (room + 1) : 0);
      x -= (x - w_.region_begin) % w_.block_size;
      std::uint64_t o = far_ ? x + w_.stroke_bytes : x;
      if (far_) ++pair_;
      far_ = !far_;
      return o;
    }
  }
  return w_.region_begin;
}

}  // namespace dp
