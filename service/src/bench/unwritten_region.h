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

#include "bench/io_engine.h"
#include "bench/workload.h"
#include "bench/workload_runner.h"
#include "model/bench_result.h"

namespace dp {

// Whether a read's data is all zeros: the whole of a buffer of up to 16 KiB,
// else 4 KiB at its start, middle and end. `n` is a multiple of 512.
bool BufferAllZero(const std::byte* p, std::size_t n);

// The reason ("128 of 128 checked reads returned only zeros (1% of reads
// within 3.1 us, faster than flash's 20 us): a region never written or
// trimmed"), or nullopt.
std::optional<std::string> UnwrittenReason(const Workload& w, const WorkloadResult& r,
                                           const DeviceInfo& device);

// Where the seq point starts on flash. A region that was never written reads
// as zeros from the drive's map without touching NAND, so a sequential read
// of a young pool's empty front measures nothing; a later region with data
// does. Probes 8 reads of 4 KiB spread over each eighth of the device, in
// order from the first, and returns the start of the first eighth where at
// most 2 of its 8 probes were all zero; failing that, of the eighth with the
// fewest (the earliest on a tie). On a pool's member the first eighth holds
// the labels and the oldest data, so this is almost always 0 and stable from
// run to run; it moves only while the front is empty (and the result then
// says where it read). 64 reads of 4 KiB, with nothing else of ours in flight;
// the runner makes them at the start of the seq point, through the point's
// own-I/O meter, so the contention guard counts them as ours.
// Devices that read their medium whatever was written (rotational) and
// engines that return no data are not probed: 0.
Result<std::uint64_t> WrittenSeqStart(IoEngine& engine, const DeviceInfo& device,
                                      std::size_t alignment, std::uint32_t block_size);

// Copies what the runner learnt onto the point: jobs that ran, a clamped
// queue depth, and the unwritten verdict with its reason.
void AnnotatePoint(const Workload& w, const WorkloadResult& r, const DeviceInfo& device,
                   BenchPoint& point);

}  // namespace dp
