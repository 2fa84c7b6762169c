// BenchTest and BenchOptions: what to measure and within which budgets; the
// input to the runner (RunBench), filled by the CLI from flags or by the
// scheduler from Config::bench. Plain value types; every default is stated.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "bench/engine_choice.h"
#include "config/config.h"

namespace dp {

enum class BenchTest { kSeq, kZones, kSeek, kRandom, kSweep, kPoolWrite, kParallel };

// "seq" | "zones" | "seek" | "random" | "sweep" | "pool-write" | "parallel".
Result<BenchTest> ParseBenchTest(std::string_view name);
std::string_view BenchTestName(BenchTest t);
// The read tests `--test all` means for `target_count` targets (parallel needs two or more).
std::vector<BenchTest> AllReadTests(std::size_t target_count);
bool IsReadTest(BenchTest t);

struct BenchOptions {
  std::vector<BenchTest> tests = {BenchTest::kSeq};
  double seconds = 10;                   // time budget per test per target (split among its points)
  std::uint64_t max_bytes = 8ULL << 30;  // byte budget per test per target (split likewise)
  std::uint32_t queue_depth = 0;  // 0 = each test's own (seq/zones 8, random 1 and 32, others 1)
  std::uint32_t block_size =
      0;  // 0 = each test's own (seq/zones 1 MiB, random/seek 4 KiB); sweep ignores it
  EngineKind engine = EngineKind::kAuto;
  // Submitting threads per point on one target (fio's numjobs), reported as
  // one result; kAutoJobs = pick from a short probe (workload_runner.h).
  std::uint32_t jobs = 1;
  int zone_sweep_points =
      0;  // zones: also an N-point transfer sweep across the surface (0 = off, else 2..64)
  double busy_threshold = 0.05;     // foreign share of I/O above which a point is "contended"
  double idle_check_seconds = 0.2;  // watch the device this long before starting (0 = skip)
  std::uint64_t seed = 0x6469736b70756c73;  // random offsets; fixed so runs are comparable
  double min_free_percent = 10;  // pool-write refuses if free space would fall below this
  std::uint64_t pool_write_max_bytes = 1ULL << 30;  // pool-write scratch file size cap

  // Errors (InvalidArgument) name the option: "--seconds must be > 0", ...
  Status Validate() const;
};

constexpr std::uint32_t kAutoJobs = 0;

// "auto" -> kAutoJobs, "1".."64" -> N. Errors name the value: "--jobs must
// be auto or a number from 1 to 64 (got '0')".
Result<std::uint32_t> ParseJobs(std::string_view text);

// Defaults for a scheduled run from the config's bench section.
BenchOptions BenchOptionsFromConfig(const BenchConfig& config);

}  // namespace dp
