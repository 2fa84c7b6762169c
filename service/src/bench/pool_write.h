// The pool-write test: the only code in diskpulse that writes, and only to a
// scratch file it creates itself (O_CREAT | O_EXCL) inside a directory of a
// pool dataset — never to a device. Two phases:
//  - stream: incompressible pseudo-random 1 MiB writes, then one fsync; MB/s
//    over the whole phase including the fsync (like `dd ... conv=fsync`);
//  - fsync: 4 KiB write + fsync cycles; latency percentiles of each cycle
//    (the sync-write / SLOG question).
// The scratch file is removed when the test ends: success, error or cancel
// (the CLI turns SIGINT into cancel). Refuses to start when free space would
// fall below min_free_percent. Runs on the caller's thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "base/clock.h"
#include "bench/workload_runner.h"
#include "model/bench_result.h"

namespace dp {

struct PoolWriteOptions {
  double seconds = 10;                   // time budget: 2/3 stream, 1/3 fsync cycles
  std::uint64_t max_bytes = 1ULL << 30;  // stream phase bytes = largest scratch file size
  std::uint32_t block_size = 1 << 20;    // stream write size
  std::uint32_t sync_block_size = 4096;  // fsync-cycle write size
  std::uint64_t max_sync_writes = 5000;  // fsync cycles at most
  double min_free_percent = 10;          // refuse when free space would fall below this
  std::uint64_t seed = 0x6469736b70756c73;
};

// The checks made before anything is written. Errors: NotFound, InvalidArgument
// (not a directory — e.g. a device), PermissionDenied, ResourceExhausted (too
// little free space for `planned_bytes` with the margin).
Status CheckPoolWriteTarget(const std::string& dir, std::uint64_t planned_bytes,
                            double min_free_percent);

// Runs both phases. Errors before writing come back as a Status; errors while
// writing give a partial report (and the scratch file is still removed).
Result<BenchReport> RunPoolWrite(const std::string& dir, const PoolWriteOptions& options,
                                 const Clock& clock, const std::atomic<bool>* cancel,
                                 const ProgressFn& progress);

// The scratch-file name prefix (".diskpulse-scratch-"), for tests and cleanup.
extern const char kScratchPrefix[];

}  // namespace dp
