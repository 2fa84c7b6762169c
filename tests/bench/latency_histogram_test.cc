#include "bench/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace dp {
namespace {

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram h;
  for (std::uint64_t v = 0; v < 256; ++v) h.Record(v);
  EXPECT_EQ(h.count(), 256u);
  EXPECT_EQ(h.ValueAtQuantile(0), 0);
  EXPECT_EQ(h.ValueAtQuantile(1), 255);
  EXPECT_EQ(h.ValueAtQuantile(0.5), 127);
}

TEST(LatencyHistogramTest, BucketsTileTheRangeWithinTheErrorBound) {
  std::uint64_t expect_low = 0;
  for (std::size_t i = 0; i < 4000; ++i) {
    ASSERT_EQ(LatencyHistogram::BucketLow(i), expect_low) << i;
    ASSERT_EQ(LatencyHistogram::IndexOf(expect_low), i);
    std::uint64_t w = LatencyHistogram::BucketWidth(i);
    ASSERT_EQ(LatencyHistogram::IndexOf(expect_low + w - 1), i);
    if (expect_low >= 256) {
      ASSERT_LE(static_cast<double>(w) / expect_low, 1.0 / 128 + 1e-12);
    }
    expect_low += w;
  }
  EXPECT_LT(LatencyHistogram::IndexOf(UINT64_MAX), 7500u);
}

TEST(LatencyHistogramTest, PercentilesWithinOnePercentOfExact) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> dist(11, 1.5);  // ~60 us median, long tail
  std::vector<std::uint64_t> v;
  LatencyHistogram h;
  for (int i = 0; i < 100000; ++i) {
    auto x = static_cast<std::uint64_t>(dist(rng));
    v.push_back(x);
    h.Record(x);
  }
  std::sort(v.begin(), v.end());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    std::uint64_t exact = v[static_cast<std::size_t>(std::ceil(q * v.size())) - 1];
    EXPECT_NEAR(h.ValueAtQuantile(q), exact, exact * 0.01) << q;
  }
  EXPECT_EQ(h.max_ns(), v.back());
  EXPECT_EQ(h.min_ns(), v.front());
  double mean = 0;
  for (auto x : v) mean += x;
  EXPECT_NEAR(h.mean_ns(), mean / v.size(), 1e-6 * mean / v.size());
}

TEST(LatencyHistogramTest, MergeEqualsRecordingEverything) {
  LatencyHistogram a, b, all;
  for (std::uint64_t i = 1; i < 5000; ++i) {
    (i % 3 ? a : b).Record(i * 997);
    all.Record(i * 997);
  }
  a.Merge(b);
  EXPECT_EQ(a, all);
  EXPECT_EQ(a.ValueAtQuantile(0.99), all.ValueAtQuantile(0.99));
}

TEST(LatencyHistogramTest, EncodeDecodeRoundTrip) {
  LatencyHistogram h;
  for (std::uint64_t i = 0; i < 1000; ++i) h.RecordN(1000 + i * i * 31, 1 + i % 4);
  std::string text = h.Encode();
  EXPECT_EQ(text.rfind("h1 n=", 0), 0u);
  auto back = LatencyHistogram::Decode(text);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, h);
  EXPECT_EQ(back->Encode(), text);

  LatencyHistogram empty;
  auto e = LatencyHistogram::Decode(empty.Encode());
  ASSERT_TRUE(e.ok()) << empty.Encode();
  EXPECT_EQ(e->count(), 0u);
}

TEST(LatencyHistogramTest, DecodeRejectsDamage) {
  LatencyHistogram h;
  h.Record(5000);
  h.Record(9000);
  std::string good = h.Encode();
  for (std::string bad :
       {std::string(""), std::string("h2 n=2"), good.substr(0, good.size() - 2), good + ",x",
        std::string("h1 n=3 s=1 lo=1 hi=1 b=1:1"), std::string("h1 n=2 s=1 lo=1 hi=1 b=5:1,4:1")}) {
    EXPECT_FALSE(LatencyHistogram::Decode(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace dp
