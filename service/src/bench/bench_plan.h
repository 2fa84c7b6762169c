// PlanReadTest: turns one read test (seq, zones, seek, random, sweep) into
// its measured points, as Workload data, for a target of a given geometry.
// The plan is a pure function of (test, geometry, options): the same inputs
// give the same offsets, so runs are comparable. Budgets are the test's, split
// among its points by weight.
//
// Points (defaults; --bs / --qd override block size / queue depth):
//  seq     1 MiB QD8 sequential from offset 0 (CrystalDiskMark SEQ1M Q8)
//  zones   1 MiB QD8 sequential at outer, middle, inner (each a region of
//          size/8 at most), plus `zone_sweep_points` evenly spread positions
//          (`diskinfo -t` transfer rates)
//  seek    4 KiB QD1 strokes: full (97% of the size), half, quarter, and
//          short forward / backward steps of 1 MiB (`diskinfo -t` seek times)
//  random  4 KiB random over the whole target at QD1 and QD32 (RND4K)
//  sweep   QD1 sequential at 4K, 8K, ... 1M, each in its own slice of the
//          outer eighth (the `dd bs=` series)
#pragma once

#include <vector>

#include "bench/bench_options.h"
#include "bench/workload.h"
#include "model/bench_result.h"

namespace dp {

// Errors: InvalidArgument naming the problem (block size not a multiple of
// the device's, target smaller than the workload, not a read test).
Result<std::vector<Workload>> PlanReadTest(BenchTest test, const DeviceInfo& device,
                                           const BenchOptions& options);

}  // namespace dp
