// The unwritten-region rule on made-up figures: zeros on a non-rotational
// device are unwritten (the reason says whether faster than flash); real
// data, too few reads and anything on a disk are not.
#include "bench/unwritten_region.h"

#include <gtest/gtest.h>

#include "detect/sample.h"
#include "store/store.h"

namespace dp {
namespace {

Workload Random4k() {
  Workload w;
  w.test = "random";
  w.pattern = AccessPattern::kRandom;
  w.block_size = 4096;
  w.queue_depth = 32;
  return w;
}

// `n` reads at `us` microseconds each, `zeros` of every 8 checked all zero.
WorkloadResult Reads(std::uint64_t n, double us, std::uint64_t zero_of_checked_percent) {
  WorkloadResult r;
  for (std::uint64_t i = 0; i < n; ++i) r.latency.Record(static_cast<std::uint64_t>(us * 1e3));
  r.ios = n;
  r.checked_reads = n / 8;
  r.zero_reads = r.checked_reads * zero_of_checked_percent / 100;
  return r;
}

DeviceInfo Flash() {
  DeviceInfo d;
  d.rotational = false;
  return d;
}

TEST(UnwrittenReasonTest, ZerosOnFlashAreUnwritten) {
  auto why = UnwrittenReason(Random4k(), Reads(8000, 4, 100), Flash());
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("1000 of 1000 checked reads returned only zeros"), std::string::npos)
      << *why;
  EXPECT_NE(why->find("faster than flash's 20 us"), std::string::npos) << *why;
  // Slow zeros (a busy host) are unwritten too; the reason does not call them fast.
  auto slow = UnwrittenReason(Random4k(), Reads(8000, 24000, 100), Flash());
  ASSERT_TRUE(slow.has_value());
  EXPECT_EQ(slow->find("faster than flash"), std::string::npos) << *slow;
  EXPECT_NE(why->find("never written or trimmed"), std::string::npos);
  // Unknown rotation (e.g. FreeBSD without the hint) is treated as flash.
  DeviceInfo unknown;
  EXPECT_TRUE(UnwrittenReason(Random4k(), Reads(8000, 4, 100), unknown).has_value());
}

TEST(UnwrittenReasonTest, DataDisksAndFewReadsAreNot) {
  EXPECT_FALSE(UnwrittenReason(Random4k(), Reads(8000, 4, 98), Flash()).has_value());
  EXPECT_FALSE(UnwrittenReason(Random4k(), Reads(8000, 4, 0), Flash()).has_value());
  DeviceInfo disk;
  disk.rotational = true;
  EXPECT_FALSE(UnwrittenReason(Random4k(), Reads(8000, 4, 100), disk).has_value());
  EXPECT_FALSE(UnwrittenReason(Random4k(), Reads(40, 4, 100), Flash()).has_value());
}

TEST(UnwrittenReasonTest, TheFloorGrowsWithTheBlock) {
  Workload seq = Random4k();
  seq.block_size = 1 << 20;  // floor 20 us + 1 MiB at 16 GB/s = 85.5 us
  EXPECT_NE(UnwrittenReason(seq, Reads(800, 60, 100), Flash())->find("faster than flash's 86 us"),
            std::string::npos);
  EXPECT_EQ(UnwrittenReason(seq, Reads(800, 120, 100), Flash())->find("faster than flash"),
            std::string::npos);
}

TEST(UnwrittenReasonTest, AnnotateCopiesJobsClampAndVerdict) {
  Workload w = Random4k();
  w.queue_depth_requested = 256;
  WorkloadResult r = Reads(8000, 4, 100);
  r.jobs = 3;
  BenchPoint p;
  AnnotatePoint(w, r, Flash(), p);
  EXPECT_EQ(p.jobs, 3u);
  EXPECT_EQ(p.queue_depth_requested, 256u);
  EXPECT_TRUE(p.unwritten);
  EXPECT_FALSE(p.unwritten_reason.empty());
}

TEST(UnwrittenReasonTest, UnwrittenSamplesAreNeverEvidence) {
  MeasurementSample m;
  m.value = 250000;
  m.unwritten = true;
  auto samples = detect::ToSamples(std::vector<MeasurementSample>{m});
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_TRUE(samples[0].unwritten);
  EXPECT_FALSE(samples[0].Good());
  samples[0].unwritten = false;
  EXPECT_TRUE(samples[0].Good());
}

}  // namespace
}  // namespace dp
