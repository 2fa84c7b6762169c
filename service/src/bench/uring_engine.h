// The io_uring engine (Linux, liburing): one ring of `queue_depth` entries;
// Submit prepares a read, Reap submits everything prepared and waits for
// completions in one system call. Defined in uring_engine_uring.cc, which is
// compiled only when liburing is found (DP_HAVE_URING).
// Owned by one runner thread; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>

#include "base/clock.h"
#include "bench/io_engine.h"

namespace dp {

// fd stays owned by the caller and must outlive the engine. Errors:
// Unsupported when the kernel refuses io_uring (old kernel, io_uring_disabled).
Result<std::unique_ptr<IoEngine>> MakeUringEngine(int fd, std::uint32_t queue_depth,
                                                  const Clock& clock);

}  // namespace dp
