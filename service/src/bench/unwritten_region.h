// UnwrittenRegion: tells when a point on flash read blocks that were never
// written (or were trimmed). An SSD answers such reads from its mapping table
// without reading NAND, with zeros, far faster than any real read (DiskSpeed
// warns of the same), so the figure says nothing about the drive: such a
// point is marked `unwritten` with the reason and is never evidence.
//
// Rule: the device is not known to be rotational (a disk reads its platter
// whether written or not), at least 8 reads were checked (every 8th read's
// data), and at least 99% of them were all zero. ZFS compresses zero blocks
// away (they become holes), so real pool data is almost never all zero; a
// false flag only costs evidence, never makes a result lie.
// Latency is stated in the reason but does not decide: the fastest 1% of reads
// (p1) is compared with what flash needs, 20 us + block / 16 GB/s (a NAND page
// read, tR, takes 25-100 us on TLC/QLC, ~20 us in SLC-cache mode; 16 GB/s is
// PCIe 5.0 x4), and reads faster than that are called impossibly fast. It
// cannot decide because on a busy host the latency is the scheduler's: on the
// 2-core test machine at load 24 a read of a hole through a loop device took
// 24 ms at the median, slower than any flash.
#pragma once

#include <optional>
#include <string>

#include "bench/workload.h"
#include "bench/workload_runner.h"
#include "model/bench_result.h"

namespace dp {

// The reason ("128 of 128 checked reads returned only zeros (1% of reads
// within 3.1 us, faster than flash's 20 us): a region never written or
// trimmed"), or nullopt.
std::optional<std::string> UnwrittenReason(const Workload& w, const WorkloadResult& r,
                                           const DeviceInfo& device);

// Copies what the runner learnt onto the point: jobs that ran, a clamped
// queue depth, and the unwritten verdict with its reason.
void AnnotatePoint(const Workload& w, const WorkloadResult& r, const DeviceInfo& device,
                   BenchPoint& point);

}  // namespace dp
