// Which engine reads a device, and building it.
//
// `auto` means io_uring when it is compiled in and the kernel allows it, with
// one exception: when this process sits in a cgroup that throttles reads on
// the device (cgroup v1 blkio.throttle.read_bps_device / read_iops_device, or
// cgroup v2 io.max rbps/riops), auto picks the pread engine. Measured on
// kernel 6.18 / cgroup v1: the bandwidth throttle charges io_uring reads about
// twice (fio's io_uring reads ~50% of the cap, psync within 0.1%); the IOPS
// throttle charges both exactly, but one simple rule ("throttled: pread")
// also covers cgroups that set both limits, and on a throttled (slow) device
// pread's extra CPU per read costs nothing.
// Everywhere else (FreeBSD, no liburing, io_uring disabled) auto is pread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "bench/block_device.h"
#include "bench/io_engine.h"

namespace dp {

enum class EngineKind { kAuto, kPread, kUring };

// "auto" | "pread" | "uring".
Result<EngineKind> ParseEngineKind(std::string_view name);
std::string_view EngineKindName(EngineKind kind);

// True when the build has the io_uring engine.
bool UringCompiledIn();

// True when the build has it and this kernel gives this process a ring:
// qemu-user (arm64 tests on x86-64), seccomp profiles and
// kernel.io_uring_disabled refuse io_uring_setup. Probed once; `why` gets the
// refusal ("io_uring unavailable: Function not implemented").
bool UringUsable(std::string* why = nullptr);

// Resolves kAuto for a device as described above (never returns kAuto).
// `why` (optional) receives a sentence for logs/--verbose.
EngineKind ResolveEngine(EngineKind requested, const BlockDevice& device,
                         std::string* why = nullptr);

// Builds the engine. kUring on a build without liburing: Unsupported.
// kAuto is resolved first; an io_uring that the kernel refuses under kAuto
// falls back to pread. `defer_completions`: see uring_engine.h (io_uring only).
Result<std::unique_ptr<IoEngine>> MakeEngine(EngineKind kind, const BlockDevice& device,
                                             std::uint32_t queue_depth, const Clock& clock,
                                             bool defer_completions = false);

namespace internal {
// Platform part (engine_choice_<os>.cc): does this process's cgroup throttle
// reads (bandwidth or IOPS) on the device named by stats_key ("MAJ:MIN")?
bool ReadsThrottled(const std::string& stats_key);
}  // namespace internal

}  // namespace dp
