#include "sched/device_busy.h"

namespace dp {

// devstat keeps busy time too (devstat_compute_statistics' BUSY_PCT), but
// not behind a plain file; until then the probe falls back to I/O counts.
Result<std::uint64_t> ReadDeviceBusyMillis(const std::string& stats_key) {
  return Unsupported("busy time not read on FreeBSD (" + stats_key + ")");
}

}  // namespace dp
