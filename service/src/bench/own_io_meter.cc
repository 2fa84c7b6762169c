#include "bench/own_io_meter.h"

#include <algorithm>
#include <limits>

namespace dp {
namespace {

constexpr std::uint64_t kProbeTag = std::numeric_limits<std::uint64_t>::max();
constexpr int kProbeAttempts = 4;
constexpr std::uint32_t kPage = 4096;
// Where the limits are not known (FreeBSD), the smallest MAXPHYS there has been.
constexpr std::uint64_t kUnknownUnsplit = 128 * 1024;
// A read that does not complete in this long means a wedged engine or device.
constexpr auto kProbeDeadline = std::chrono::seconds(30);
constexpr auto kReapStep = std::chrono::milliseconds(100);

std::uint64_t Grown(std::uint64_t a, std::uint64_t b) { return b >= a ? b - a : 0; }

}  // namespace

bool AlwaysOneRequest(std::uint64_t length, const DeviceCounters& limits) {
  return length <= kPage || (limits.unsplit_bytes && length <= limits.unsplit_bytes);
}

OwnIoMeter::OwnIoMeter(std::unique_ptr<IoEngine> inner, CountersFn counters,
                       const DeviceCounters& limits)
    : inner_(std::move(inner)), counters_(std::move(counters)), limits_(limits) {}

std::uint64_t OwnIoMeter::WorstCase(std::uint32_t length) const {
  const std::uint64_t unsplit = limits_.unsplit_bytes ? limits_.unsplit_bytes : kUnknownUnsplit;
  return (length + unsplit - 1) / unsplit;
}

Result<std::uint64_t> OwnIoMeter::UnitsFor(const IoRequest& request) {
  const std::uint32_t length = request.length;
  if (AlwaysOneRequest(length, limits_)) return 1;
  const auto key = std::make_pair(static_cast<const std::byte*>(request.buffer), length);
  if (auto it = units_.find(key); it != units_.end()) return it->second;

  // Nothing of ours may be in flight while the probe's window is watched.
  const auto deadline = std::chrono::steady_clock::now() + kProbeDeadline;
  while (inner_->in_flight() > 0) {
    if (std::chrono::steady_clock::now() > deadline)
      return IoError("reads did not complete within 30 s");
    DP_ASSIGN_OR_RETURN(std::size_t n, inner_->Reap(inner_->in_flight(), kReapStep, held_));
    (void)n;
  }

  // A window with foreign reads in it still bounds ours from above: each
  // foreign read is at least one request, and at least one per
  // max_request_bytes of its bytes. Writes do not touch the read counters.
  std::uint64_t units = 0, bound = WorstCase(length);
  for (int attempt = 0; attempt < kProbeAttempts && units == 0; ++attempt) {
    std::optional<DeviceCounters> c0 = counters_();
    if (!c0) break;
    DP_RETURN_IF_ERROR(
        inner_->Submit({request.offset, length, request.buffer, kProbeTag, request.buffer_index}));
    std::vector<IoCompletion> done;
    while (done.empty()) {
      if (std::chrono::steady_clock::now() > deadline)
        return IoError("a read did not complete within 30 s");
      DP_ASSIGN_OR_RETURN(std::size_t n, inner_->Reap(1, kReapStep, done));
      (void)n;
    }
    std::optional<DeviceCounters> c1 = counters_();
    const IoCompletion& probe = done.front();
    ++own_->reads;
    if (probe.result > 0) own_->bytes += static_cast<std::uint64_t>(probe.result);
    const bool whole = probe.result == static_cast<std::int64_t>(length);
    const std::uint64_t grown = c1 ? Grown(c0->read_units(), c1->read_units()) : 0;
    const std::uint64_t bytes = c1 ? Grown(c0->read_bytes, c1->read_bytes) : 0;
    if (whole && bytes == length && grown >= 1) {
      units = grown;
      own_->requests += units;
      break;
    }
    if (whole && c1 && bytes > length) {
      const std::uint64_t foreign_bytes = bytes - length;
      const std::uint64_t per = limits_.max_request_bytes;
      const std::uint64_t foreign_min =
          per ? std::max<std::uint64_t>(1, (foreign_bytes + per - 1) / per) : 1;
      if (grown > foreign_min) bound = std::min(bound, grown - foreign_min);
    }
    own_->requests += bound;
    // A failed read is the real read's to report; stop probing.
    if (!whole) break;
  }
  if (units) {
    ++calibrated_;
  } else {
    ++fell_back_;
    units = bound;
  }
  units_[key] = units;
  return units;
}

Status OwnIoMeter::Submit(const IoRequest& request) {
  DP_ASSIGN_OR_RETURN(std::uint64_t units, UnitsFor(request));
  DP_RETURN_IF_ERROR(inner_->Submit(request));
  in_flight_units_[request.tag] = units;
  return Status::Ok();
}

void OwnIoMeter::Count(const IoCompletion& c) {
  ++own_->reads;
  if (c.result > 0) own_->bytes += static_cast<std::uint64_t>(c.result);
  auto it = in_flight_units_.find(c.tag);
  if (it == in_flight_units_.end()) return;
  own_->requests += it->second;
  in_flight_units_.erase(it);
}

Result<std::size_t> OwnIoMeter::Reap(std::size_t min_complete, std::chrono::nanoseconds timeout,
                                     std::vector<IoCompletion>& out) {
  const std::size_t held = held_.size();
  for (const IoCompletion& c : held_) {
    Count(c);
    out.push_back(c);
  }
  held_.clear();
  if (inner_->in_flight() == 0) return held;
  const std::size_t want = min_complete > held ? min_complete - held : 0;
  const std::size_t first = out.size();
  DP_ASSIGN_OR_RETURN(std::size_t n,
                      inner_->Reap(want, want ? timeout : std::chrono::nanoseconds(0), out));
  for (std::size_t i = first; i < out.size(); ++i) Count(out[i]);
  return held + n;
}

}  // namespace dp
