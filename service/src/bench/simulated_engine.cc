#include "bench/simulated_engine.h"

#include <algorithm>
#include <cerrno>
#include <cmath>

namespace dp {

SimulatedDrive SimulatedDrive::Hdd() { return SimulatedDrive(); }

SimulatedDrive SimulatedDrive::Ssd() {
  SimulatedDrive d;
  d.size_bytes = 500'000'000'000;
  d.rotational = false;
  d.outer_mb_per_s = d.inner_mb_per_s = 520;
  d.rpm = 0;
  d.track_to_track_ms = d.full_stroke_ms = 0.06;
  d.command_overhead_us = 10;
  d.error_latency_ms = 50;
  return d;
}

double SimulatedDrive::TransferRateAt(std::uint64_t offset) const {
  double f = size_bytes ? std::min(1.0, static_cast<double>(offset) / size_bytes) : 0;
  double k = outer_mb_per_s > 0 ? inner_mb_per_s / outer_mb_per_s : 1;
  double r = std::sqrt(1 - f * (1 - k * k));
  return outer_mb_per_s * r * throughput_scale * std::pow(1 - decay_per_age, age);
}

double SimulatedDrive::SeekMs(std::uint64_t distance) const {
  if (distance == 0 || size_bytes == 0) return 0;
  double f = std::min(1.0, static_cast<double>(distance) / size_bytes);
  return track_to_track_ms + (full_stroke_ms - track_to_track_ms) * std::sqrt(f);
}

DeviceInfo SimulatedDrive::Info() const {
  DeviceInfo i;
  i.size_bytes = size_bytes;
  i.logical_block_size = logical_block_size;
  i.physical_block_size = physical_block_size;
  i.rotational = rotational;
  return i;
}

Status SimulatedDrive::Validate() const {
  auto bad = [](const char* f, const char* why) {
    return InvalidArgument(std::string("simulated drive: ") + f + ": " + why);
  };
  if (logical_block_size == 0 || (logical_block_size & (logical_block_size - 1)))
    return bad("logical_block_size", "must be a power of two");
  if (size_bytes == 0 || size_bytes % logical_block_size)
    return bad("size_bytes", "must be a non-zero multiple of logical_block_size");
  if (!(outer_mb_per_s > 0) || !(inner_mb_per_s > 0))
    return bad("outer/inner_mb_per_s", "must be > 0");
  if (rpm < 0 || track_to_track_ms < 0 || full_stroke_ms < track_to_track_ms)
    return bad("seek", "need rpm >= 0 and 0 <= track_to_track_ms <= full_stroke_ms");
  if (!(throughput_scale > 0)) return bad("throughput_scale", "must be > 0");
  if (decay_per_age < 0 || decay_per_age >= 1) return bad("decay_per_age", "must be in [0, 1)");
  if (jitter < 0 || jitter >= 1) return bad("jitter", "must be in [0, 1)");
  for (const auto& r : slow_regions)
    if (r.end <= r.begin || r.slowdown < 1)
      return bad("slow_regions", "need begin < end, slowdown >= 1");
  for (const auto& r : error_regions)
    if (r.end <= r.begin) return bad("error_regions", "need begin < end");
  return Status::Ok();
}

SimulatedEngine::SimulatedEngine(SimulatedDrive drive, std::uint32_t queue_depth, FakeClock& clock)
    : drive_(std::move(drive)),
      queue_depth_(queue_depth == 0 ? 1 : queue_depth),
      clock_(clock),
      rng_(drive_.seed),
      busy_until_(clock.Monotonic()) {}

Status SimulatedEngine::Submit(const IoRequest& request) {
  if (in_flight_ >= queue_depth_)
    return ResourceExhausted("simulated engine: " + std::to_string(queue_depth_) +
                             " reads already in flight");
  pending_.push_back(Op{request, clock_.Monotonic()});
  ++in_flight_;
  max_in_flight_ = std::max(max_in_flight_, in_flight_);
  return Status::Ok();
}

bool SimulatedEngine::Touches(const SimulatedRegion& reg, const IoRequest& r) const {
  return r.offset < reg.end && r.offset + r.length > reg.begin;
}

double SimulatedEngine::ServiceMs(const IoRequest& r, bool& error) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double ms = drive_.command_overhead_us / 1000;
  if (r.offset != head_) {
    std::uint64_t d = r.offset > head_ ? r.offset - head_ : head_ - r.offset;
    ms += drive_.SeekMs(d);
    if (drive_.rpm > 0) ms += unit(rng_) * 60000.0 / drive_.rpm;
  }
  error = false;
  for (const auto& reg : drive_.error_regions) {
    if (Touches(reg, r)) {
      error = true;
      return ms + drive_.error_latency_ms;
    }
  }
  double transfer = static_cast<double>(r.length) / (drive_.TransferRateAt(r.offset) * 1e3);
  for (const auto& reg : drive_.slow_regions) {
    if (Touches(reg, r)) {
      transfer *= reg.slowdown;
      ms += reg.extra_latency_ms;
    }
  }
  ms += transfer;
  if (drive_.jitter > 0) ms *= 1 + drive_.jitter * (2 * unit(rng_) - 1);
  return ms;
}

void SimulatedEngine::StartNext() {
  // Reads already queued when the device became free compete (NCQ picks the
  // nearest); if none was, the device idles until the oldest one arrives.
  auto it = pending_.begin();
  if (drive_.ncq && pending_.size() > 1) {
    std::uint64_t best = UINT64_MAX;
    for (auto p = pending_.begin(); p != pending_.end(); ++p) {
      if (p->submitted > busy_until_ && p != pending_.begin()) continue;
      std::uint64_t d =
          p->request.offset > head_ ? p->request.offset - head_ : head_ - p->request.offset;
      if (d < best) {
        best = d;
        it = p;
      }
    }
  }
  Op op = *it;
  pending_.erase(it);
  bool error = false;
  double ms = ServiceMs(op.request, error);
  MonoTime start = std::max(busy_until_, op.submitted);
  op.done = start + std::chrono::nanoseconds(static_cast<std::int64_t>(ms * 1e6));
  op.result = error ? -EIO : static_cast<std::int64_t>(op.request.length);
  if (!error) head_ = op.request.offset + op.request.length;
  busy_until_ = op.done;
  current_ = op;
}

Result<std::size_t> SimulatedEngine::Reap(std::size_t min_complete, std::chrono::nanoseconds,
                                          std::vector<IoCompletion>& out) {
  min_complete = std::min<std::size_t>(min_complete, in_flight_);
  std::size_t n = 0;
  for (;;) {
    if (!current_ && !pending_.empty()) StartNext();
    if (!current_) break;
    MonoTime now = clock_.Monotonic();
    if (current_->done <= now) {
      out.push_back({current_->request.tag, current_->result,
                     std::chrono::duration_cast<std::chrono::nanoseconds>(current_->done -
                                                                          current_->submitted)});
      current_.reset();
      --in_flight_;
      ++n;
      continue;
    }
    if (n >= min_complete) break;
    clock_.Advance(current_->done - now);
  }
  return n;
}

}  // namespace dp
