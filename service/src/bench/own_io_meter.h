// OwnIoMeter: an IoEngine that passes reads to another engine and counts our
// own I/O as the kernel's counters count it, so that the contention guard can
// subtract exactly what we did from what the device did over the same window.
//
// Bytes are exact by themselves. Requests are not: the block layer splits a
// read at max_segments when its buffer's pages are not physically contiguous,
// so the same 1 MiB read is one request with one buffer and two with another
// (measured on a loop device: 1.0 to 2.0 requests per 1 MiB read, from run to
// run). Guessing the worst case hid up to one foreign request per read of
// ours. So the first time a buffer that could be split is used, the meter
// calibrates it: with nothing of ours in flight it reads once into that buffer
// and takes the counters' growth in requests + merges (DeviceCounters) as that
// buffer's count — when the window held no other reads (bytes grown by
// exactly ours). Else it tries again, and after four busy windows it takes
// the least upper bound those windows give (each foreign read is at least one
// request), never more than the most the read can be split into: an
// over-count of ours can only hide foreign I/O of a device busy enough to
// spoil every window, whose foreign share is then plain anyway; it never
// makes an idle device look busy. Calibration reads are our own I/O and
// counted as such; a buffer's pages stay put while in use.
//
// Calibration needs our reads drained: completions reaped meanwhile are held
// and handed out by the next Reap, so the caller sees every read once.
// One thread, like the engine it wraps. With several jobs per point (--jobs)
// each job's engine has its own meter and the guard adds them up; the other
// jobs' reads then share every calibration window, so a buffer that could be
// split takes the upper bound above (never less than it really is).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bench/device_counters.h"
#include "bench/io_engine.h"

namespace dp {

// True when a read of `length` bytes is one request (or one merge into
// another) whatever buffer it lands in: one page, or no more than the device
// takes in one request (`limits.unsplit_bytes`). Such a read counts once in
// the kernel's requests + merges however reads are batched.
bool AlwaysOneRequest(std::uint64_t length, const DeviceCounters& limits);

class OwnIoMeter final : public IoEngine {
 public:
  using CountersFn = std::function<std::optional<DeviceCounters>()>;

  // `counters` reads the device's counters now (nullopt: unreadable, and no
  // calibration is tried); `limits` gives the split limits (unsplit_bytes,
  // max_request_bytes; 0 = unknown).
  OwnIoMeter(std::unique_ptr<IoEngine> inner, CountersFn counters, const DeviceCounters& limits);

  std::string_view name() const override { return inner_->name(); }
  bool returns_data() const override { return inner_->returns_data(); }
  std::uint32_t queue_depth() const override { return inner_->queue_depth(); }
  Status Submit(const IoRequest& request) override;
  Result<std::size_t> Reap(std::size_t min_complete, std::chrono::nanoseconds timeout,
                           std::vector<IoCompletion>& out) override;
  // A calibration read is submitted as the read it stands for (fixed buffer
  // included): the kernel splits a registered buffer's reads differently.
  bool RegisterBuffers(const std::vector<std::byte*>& buffers, std::uint32_t length) override {
    return inner_->RegisterBuffers(buffers, length);
  }
  std::uint32_t in_flight() const override {
    return inner_->in_flight() + static_cast<std::uint32_t>(held_.size());
  }
  std::uint32_t max_concurrency_seen() const override { return inner_->max_concurrency_seen(); }

  // Everything read through the meter so far, calibration included.
  const OwnIo& own() const { return *own_; }
  // The same count, outliving the meter (a job's engine dies with its job);
  // read it only once the meter's thread is done with it.
  std::shared_ptr<const OwnIo> shared_own() const { return own_; }
  // Buffers calibrated from a clean window / given an upper bound.
  int calibrated() const { return calibrated_; }
  int fell_back() const { return fell_back_; }

 private:
  // The kernel's requests + merges for one read of `length` into `buffer`.
  Result<std::uint64_t> UnitsFor(const IoRequest& request);
  std::uint64_t WorstCase(std::uint32_t length) const;
  void Count(const IoCompletion& c);

  std::unique_ptr<IoEngine> inner_;
  CountersFn counters_;
  DeviceCounters limits_;
  std::map<std::pair<const std::byte*, std::uint32_t>, std::uint64_t> units_;  // per buffer
  std::unordered_map<std::uint64_t, std::uint64_t> in_flight_units_;           // per tag
  std::vector<IoCompletion> held_;  // reaped while draining for a calibration
  std::shared_ptr<OwnIo> own_ = std::make_shared<OwnIo>();
  int calibrated_ = 0;
  int fell_back_ = 0;
};

}  // namespace dp
