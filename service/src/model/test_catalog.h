// The tests diskpulse knows, in one table: name, how the test uses the drive,
// whether detection judges its series, and the figures it yields with their
// units and which way is better. The config parser, the scheduler, the
// executor, detection, /metrics, the CLI and the page (GET /api/v1/tests) all
// read this table, so a test is added or renamed in one place.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

// How a test uses the drive, which decides the rules that apply to it.
enum class TestKind {
  kRead,       // zones, seek, random, seq, sweep, parallel: timed reads
  kPoolWrite,  // pool-write: writes a scratch file in a pool dataset
  kSmart,      // smart: reads SMART data (light: not counted against caps)
  kSelfTest,   // smart-short, smart-long: starts the drive's own self-test
};

// A figure a test yields per point, as stored (BenchPoint) and judged.
struct TestMetric {
  std::string metric;     // "mb_per_s" | "iops" | "access_ms" | "p99_us"
  std::string unit;       // the stored unit: "MB/s", "IOPS", "ms", "us"
  bool higher_is_better;  // throughput and IOPS; times the other way
  // Whether every point has it (false: only points that measured it, e.g.
  // p99 where a latency histogram was kept).
  bool always = true;
  std::string title;      // "Random read p99 latency"
};

struct TestInfo {
  std::string name;     // "seq"
  TestKind kind;
  bool judged;          // detection builds baselines and alerts from its series
  std::string scope;    // "drive" | "vdev" | "pool": what one run of it targets
  std::string summary;  // one line for people
  std::vector<TestMetric> metrics;  // empty for tests that yield no bench figures
};

// Every test, in the order people are shown them.
const std::vector<TestInfo>& TestCatalog();
// nullptr for a name that is not a test.
const TestInfo* FindTest(std::string_view name);
// nullopt for a name that is not a test: callers decide (an error, or the
// most cautious rule), never a silent default.
std::optional<TestKind> KindOfTest(std::string_view name);
// Whether detection judges the test's series (false for unknown names).
bool IsJudgedTest(std::string_view name);
// "a, b, c": the names of the tests that pass `pred`, for messages.
std::string ListTests(bool (*pred)(const TestInfo&));
std::string_view TestKindName(TestKind kind);

}  // namespace dp
