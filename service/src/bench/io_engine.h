// IoEngine: the small seam between workloads and the OS (fio's ioengine
// idea): queue reads with Submit, collect them with Reap. Implementations:
// PreadEngine (worker threads, portable), UringEngine (Linux io_uring) and
// SimulatedEngine (a modelled drive on a FakeClock, for tests).
//
// An engine belongs to one workload runner thread: Submit and Reap are called
// from that thread only (engines may use threads of their own inside).
// An engine never writes: there is no write request.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace dp {

struct IoRequest {
  std::uint64_t offset = 0;     // multiple of the logical block size
  std::uint32_t length = 0;     // multiple of the logical block size
  std::byte* buffer = nullptr;  // aligned (AlignedBuffer), `length` bytes, untouched until reaped
  std::uint64_t tag = 0;        // returned in the completion
  // Index into the buffers given to RegisterBuffers when it returned true
  // (`buffer` is then that buffer); -1 otherwise.
  std::int32_t buffer_index = -1;
};

struct IoCompletion {
  std::uint64_t tag = 0;
  std::int64_t result = 0;              // bytes read (== length when whole), or -errno
  std::chrono::nanoseconds latency{0};  // submit to completion, as the engine saw it
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;

  // "pread" | "uring" | "simulated".
  virtual std::string_view name() const = 0;
  // False for an engine that never fills the buffers (a modelled drive):
  // its data says nothing about the device.
  virtual bool returns_data() const { return true; }
  // Most reads in flight at once; Submit refuses more.
  virtual std::uint32_t queue_depth() const = 0;

  // Queues one read. Errors: ResourceExhausted when queue_depth() reads are
  // already in flight (a caller bug). The read may start only at the next Reap.
  virtual Status Submit(const IoRequest& request) = 0;

  // Starts queued reads and waits until at least `min_complete` of the reads in
  // flight have completed or `timeout` passed; appends completions to `out` and
  // returns how many. min_complete is capped at the number in flight.
  virtual Result<std::size_t> Reap(std::size_t min_complete, std::chrono::nanoseconds timeout,
                                   std::vector<IoCompletion>& out) = 0;

  // Offers the runner's buffers (each `length` bytes, alive until the engine
  // is destroyed) for registration with the kernel, so reads into them skip
  // pinning pages each time (io_uring fixed buffers). True when registered:
  // requests may then carry buffer_index. An empty list unregisters (call it,
  // with nothing in flight, before the buffers are freed). The default engine
  // does nothing.
  virtual bool RegisterBuffers(const std::vector<std::byte*>& buffers, std::uint32_t length) {
    (void)buffers;
    (void)length;
    return false;
  }

  // Reads submitted but not yet reaped.
  virtual std::uint32_t in_flight() const = 0;
  // Most reads the engine ever had executing at the same time (for tests:
  // "queue depth honoured").
  virtual std::uint32_t max_concurrency_seen() const = 0;
};

}  // namespace dp
