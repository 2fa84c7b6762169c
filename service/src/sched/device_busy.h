// DeviceBusyTime: how long a device has been busy doing I/O, as the kernel
// counts it (Linux: io_ticks, field 10 of /sys/dev/block/MAJ:MIN/stat, the
// figure behind iostat's %util). Platform files device_busy_<os>.cc.
// Thread-safe (reads one file).
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace dp {

// Milliseconds the device named by stats_key (BlockDevice::stats_key()) has
// spent with I/O in flight since boot. Unsupported where the platform keeps
// no such counter; NotFound when the device has no counters (gone).
Result<std::uint64_t> ReadDeviceBusyMillis(const std::string& stats_key);

}  // namespace dp
