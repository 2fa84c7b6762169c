#include "bench/bench_options.h"

#include <algorithm>

#include "bench/workload_runner.h"
#include "model/test_catalog.h"

namespace dp {
namespace {

// The catalog's bench tests (model/test_catalog.h) as this module's enum;
// BenchTestTest.EveryCatalogBenchTestHasItsEnum keeps the two in step.
constexpr std::pair<BenchTest, std::string_view> kNames[] = {
    {BenchTest::kSeq, "seq"},           {BenchTest::kZones, "zones"},
    {BenchTest::kSeek, "seek"},         {BenchTest::kRandom, "random"},
    {BenchTest::kSweep, "sweep"},       {BenchTest::kPoolWrite, "pool-write"},
    {BenchTest::kParallel, "parallel"},
};

}  // namespace

Result<BenchTest> ParseBenchTest(std::string_view name) {
  for (const auto& [t, n] : kNames)
    if (n == name) return t;
  return InvalidArgument("unknown test '" + std::string(name) + "' (expected " +
                         ListTests([](const TestInfo& t) {
                           return t.kind == TestKind::kRead || t.kind == TestKind::kPoolWrite;
                         }) +
                         " or all)");
}

std::string_view BenchTestName(BenchTest t) {
  for (const auto& [k, n] : kNames)
    if (k == t) return n;
  return "?";
}

bool IsReadTest(BenchTest t) { return t != BenchTest::kPoolWrite; }

std::vector<BenchTest> AllReadTests(std::size_t target_count) {
  std::vector<BenchTest> v = {BenchTest::kSeq, BenchTest::kZones, BenchTest::kSeek,
                              BenchTest::kRandom, BenchTest::kSweep};
  if (target_count >= 2) v.push_back(BenchTest::kParallel);
  return v;
}

Result<std::uint32_t> ParseJobs(std::string_view text) {
  if (text == "auto") return kAutoJobs;
  std::uint32_t n = 0;
  bool digits = !text.empty() && text.size() <= 6;
  for (char c : text) {
    if (c < '0' || c > '9') digits = false;
    if (digits) n = n * 10 + static_cast<std::uint32_t>(c - '0');
  }
  if (!digits || n < 1 || n > kMaxJobs)
    return InvalidArgument("--jobs must be auto or a number from 1 to " +
                           std::to_string(kMaxJobs) + " (got '" + std::string(text) + "')");
  return n;
}

Status BenchOptions::Validate() const {
  if (tests.empty()) return InvalidArgument("--test: no test given");
  if (!(seconds > 0) || seconds > 86400)
    return InvalidArgument("--seconds must be > 0 and <= 86400");
  if (max_bytes < (1u << 20))
    return InvalidArgument("--max-bytes must be at least 1 MiB (1048576)");
  if (queue_depth > 256) return InvalidArgument("--qd must be between 1 and 256");
  if (block_size != 0 && (block_size < 512 || block_size > (64u << 20)))
    return InvalidArgument("--bs must be between 512 bytes and 64 MiB");
  if (zone_sweep_points != 0 && (zone_sweep_points < 2 || zone_sweep_points > 64))
    return InvalidArgument("zone sweep points must be 0 or 2..64");
  if (jobs > kMaxJobs)
    return InvalidArgument("--jobs must be auto or a number from 1 to " + std::to_string(kMaxJobs));
  if (busy_threshold < 0 || busy_threshold > 1)
    return InvalidArgument("busy threshold must be in 0..1");
  if (min_free_percent < 0 || min_free_percent >= 100)
    return InvalidArgument("min free percent must be in 0..99");
  return Status::Ok();
}

BenchOptions BenchOptionsFromConfig(const BenchConfig& c) {
  BenchOptions o;
  o.engine = ParseEngineKind(c.engine).value_or(EngineKind::kAuto);
  o.seconds = c.max_seconds;
  o.max_bytes = c.max_bytes;
  o.busy_threshold = c.busy_threshold;
  o.jobs = c.jobs;
  o.min_free_percent = c.min_free_percent;
  return o;
}

}  // namespace dp
