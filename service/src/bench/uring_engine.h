// The io_uring engine (Linux, liburing): one ring of `queue_depth` entries;
// Submit prepares a read, Reap submits everything prepared and waits for
// completions in one system call. Defined in uring_engine_uring.cc, which is
// compiled only when liburing is found (DP_HAVE_URING).
// Owned by one runner thread; not thread-safe.
//
// With `defer_completions` the ring is set up single-issuer with deferred task
// work (IORING_SETUP_DEFER_TASKRUN | SINGLE_ISSUER | COOP_TASKRUN, as fio 3.33
// sets it up): completions are posted when the thread reaps, not by
// interrupting it as each read ends. Measured on a RAM-backed loop device,
// random 4 KiB at QD32, alternating rounds: median 168k -> 195k IOPS (fio
// 202k). Then only the thread that made the engine may submit, reap,
// register buffers and destroy it. It also changes how reads reach the block
// layer (reaped in batches, resubmitted in batches), and a sequential point of
// 1 MiB reads split by the kernel was once counted 0.57% apart from the
// kernel's requests + merges; so the caller asks for it only where every read
// is one request whatever the batching (see AlwaysOneRequest in
// own_io_meter.h). Without it the ring is a plain one.
#pragma once

#include <cstdint>
#include <memory>

#include "base/clock.h"
#include "bench/io_engine.h"

namespace dp {

// fd stays owned by the caller and must outlive the engine. Errors:
// Unsupported when the kernel refuses io_uring (old kernel, io_uring_disabled).
Result<std::unique_ptr<IoEngine>> MakeUringEngine(int fd, std::uint32_t queue_depth,
                                                  const Clock& clock,
                                                  bool defer_completions = false);

}  // namespace dp
