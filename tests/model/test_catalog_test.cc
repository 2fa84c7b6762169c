// The test catalog (model/test_catalog.h) is the one list of tests: the bench
// module's enum, the config's known tests and detection's series all follow it.
#include <gtest/gtest.h>

#include "bench/bench_options.h"
#include "config/schedule_config.h"
#include "detect/series.h"
#include "model/test_catalog.h"
#include "sched/job.h"

namespace dp {
namespace {

TEST(TestCatalogTest, EveryCatalogBenchTestHasItsEnumAndBack) {
  int bench_tests = 0;
  for (const TestInfo& t : TestCatalog()) {
    const bool bench = t.kind == TestKind::kRead || t.kind == TestKind::kPoolWrite;
    auto parsed = ParseBenchTest(t.name);
    EXPECT_EQ(parsed.ok(), bench) << t.name;
    if (!parsed.ok()) continue;
    ++bench_tests;
    EXPECT_EQ(BenchTestName(*parsed), t.name);
    EXPECT_EQ(IsReadTest(*parsed), t.kind == TestKind::kRead) << t.name;
  }
  EXPECT_EQ(bench_tests, 7);
  auto bad = ParseBenchTest("sequential");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(
                "(expected seq, zones, seek, random, sweep, parallel, pool-write or all)"),
            std::string::npos)
      << bad.status().message();
}

TEST(TestCatalogTest, ConfigKnowsTheCatalogsTestsAndNoOthers) {
  std::vector<std::string> names;
  for (const TestInfo& t : TestCatalog()) names.push_back(t.name);
  EXPECT_EQ(KnownTests(), names);
  EXPECT_FALSE(IsKnownTest("sequential"));
}

TEST(TestCatalogTest, AnUnknownNameIsNoTestAndNoKind) {
  EXPECT_EQ(FindTest("sequential"), nullptr);
  EXPECT_FALSE(KindOfTest("sequential").has_value());
  EXPECT_FALSE(IsJudgedTest("sequential"));
  EXPECT_EQ(KindOfTest("smart-short"), TestKind::kSelfTest);
  EXPECT_EQ(KindOfTest("pool-write"), TestKind::kPoolWrite);
  EXPECT_TRUE(IsJudgedTest("sweep"));
  EXPECT_FALSE(IsJudgedTest("parallel"));
  // The scheduler gives a name it does not know the most cautious rules.
  EXPECT_TRUE(IsHeavyTest("sequential"));
  EXPECT_FALSE(IsHeavyTest("smart"));
  EXPECT_TRUE(IsHeavyTest("pool-write"));
}

// Detection's series of a point carry the catalog's figures: those every
// point has, and the optional ones only where the point measured them.
TEST(TestCatalogTest, SeriesOfAPointAreTheCatalogsFigures) {
  auto metrics = [](const BenchPoint& p) {
    std::vector<std::string> out;
    for (const auto& s : detect::SeriesOf("d", "sda", p)) out.push_back(s.key.metric);
    return out;
  };
  BenchPoint random;
  random.test = "random";
  EXPECT_EQ(metrics(random), (std::vector<std::string>{"iops"}));
  random.latency = LatencySummary{};
  EXPECT_EQ(metrics(random), (std::vector<std::string>{"iops", "p99_us"}));
  BenchPoint seek;
  seek.test = "seek";
  EXPECT_TRUE(metrics(seek).empty());
  seek.access_ms = 8.5;
  EXPECT_EQ(metrics(seek), (std::vector<std::string>{"access_ms"}));
  BenchPoint seq;
  seq.test = "seq";
  seq.latency = LatencySummary{};
  EXPECT_EQ(metrics(seq), (std::vector<std::string>{"mb_per_s"}));
  BenchPoint write;
  write.test = "pool-write";
  write.latency = LatencySummary{};
  EXPECT_EQ(metrics(write), (std::vector<std::string>{"mb_per_s", "p99_us"}));
}

}  // namespace
}  // namespace dp
