#include "bench/workload.h"

#include <gtest/gtest.h>

#include <set>

#include "bench/bench_plan.h"

namespace dp {
namespace {

Workload Random(std::uint64_t seed) {
  Workload w;
  w.test = "random";
  w.pattern = AccessPattern::kRandom;
  w.block_size = 4096;
  w.region_begin = 1 << 20;
  w.region_end = 1 << 30;
  w.seed = seed;
  return w;
}

TEST(WorkloadTest, RandomOffsetsAreFixedAlignedAndInside) {
  Workload w = Random(42);
  OffsetSequence a(w), b(w);
  std::set<std::uint64_t> distinct;
  for (int i = 0; i < 10000; ++i) {
    std::uint64_t o = a.Next();
    ASSERT_EQ(o, b.Next());
    ASSERT_EQ(o % 4096, 0u);
    ASSERT_GE(o, w.region_begin);
    ASSERT_LE(o + 4096, w.region_end);
    distinct.insert(o);
  }
  EXPECT_GT(distinct.size(), 9700u);  // ~9810 expected for 10000 draws from 262k slots
  Workload other = Random(43);
  OffsetSequence c(other);
  int same = 0;
  OffsetSequence d(w);
  for (int i = 0; i < 100; ++i) same += c.Next() == d.Next();
  EXPECT_LT(same, 5);
}

TEST(WorkloadTest, SequentialWrapsInsideItsRegion) {
  Workload w;
  w.block_size = 1 << 20;
  w.region_begin = 4 << 20;
  w.region_end = 7 << 20;
  OffsetSequence s(w);
  std::vector<std::uint64_t> got;
  for (int i = 0; i < 5; ++i) got.push_back(s.Next() >> 20);
  EXPECT_EQ(got, (std::vector<std::uint64_t>{4, 5, 6, 4, 5}));
}

TEST(WorkloadTest, StrokeAlternatesAtTheStrokeDistance) {
  Workload w;
  w.pattern = AccessPattern::kStroke;
  w.block_size = 4096;
  w.region_end = 1 << 30;
  w.stroke_bytes = 512 << 20;
  w.stride = 1 << 20;
  OffsetSequence s(w);
  for (int i = 0; i < 100; ++i) {
    std::uint64_t near = s.Next(), far = s.Next();
    ASSERT_EQ(far - near, w.stroke_bytes);
    ASSERT_LE(far + 4096, w.region_end);
  }
}

TEST(WorkloadTest, ValidateNamesWhatIsWrong) {
  Workload w;
  w.test = "seq";
  w.block_size = 1 << 20;
  w.queue_depth = 8;
  w.region_end = 4 << 20;
  Status s = w.Validate(512);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("target smaller than the workload"), std::string::npos) << s.message();
  w.region_end = 64 << 20;
  EXPECT_TRUE(w.Validate(512).ok());
  w.block_size = 1000;
  EXPECT_NE(w.Validate(512).message().find("not a multiple"), std::string::npos);
}

TEST(BenchPlanTest, EveryReadTestFitsAndSplitsItsBudget) {
  DeviceInfo dev;
  dev.size_bytes = 256ULL << 20;
  BenchOptions o;
  o.seconds = 10;
  for (BenchTest t : AllReadTests(1)) {
    auto plan = PlanReadTest(t, dev, o);
    ASSERT_TRUE(plan.ok()) << BenchTestName(t) << ": " << plan.status().ToString();
    double total = 0;
    for (const Workload& w : *plan) {
      total += w.seconds;
      EXPECT_LT(w.warmup_seconds, w.seconds);
      EXPECT_TRUE(w.Validate(512).ok());
    }
    EXPECT_NEAR(total, 10, 1e-9) << BenchTestName(t);
  }
  auto zones = PlanReadTest(BenchTest::kZones, dev, o);
  ASSERT_EQ(zones->size(), 3u);
  EXPECT_EQ((*zones)[0].zone, "outer");
  EXPECT_EQ((*zones)[2].region_end, dev.size_bytes);
  auto seek = PlanReadTest(BenchTest::kSeek, dev, o);
  ASSERT_EQ(seek->size(), 5u);
  EXPECT_EQ((*seek)[4].stroke, "short_backward");
  auto random = PlanReadTest(BenchTest::kRandom, dev, o);
  ASSERT_EQ(random->size(), 2u);
  EXPECT_EQ((*random)[1].queue_depth, 32u);
}

TEST(BenchPlanTest, RejectsWorkloadsThatDoNotFit) {
  DeviceInfo dev;
  dev.size_bytes = 4ULL << 20;
  BenchOptions o;
  auto seq = PlanReadTest(BenchTest::kSeq, dev, o);  // 1 MiB x QD8 > 4 MiB
  ASSERT_FALSE(seq.ok());
  EXPECT_NE(seq.status().message().find("target smaller than the workload"), std::string::npos);
  dev.size_bytes = 256ULL << 20;
  dev.logical_block_size = 4096;
  o.block_size = 6144;
  auto bad_bs = PlanReadTest(BenchTest::kRandom, dev, o);
  ASSERT_FALSE(bad_bs.ok());
  EXPECT_NE(bad_bs.status().message().find("not a multiple"), std::string::npos);
}

}  // namespace
}  // namespace dp
