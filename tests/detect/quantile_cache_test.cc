// The bands' quantiles and the heavy-tail tables are kept once per process
// and shared by every thread (detect/process_cache.h): what a thread reads
// from them must be what computing afresh gives, bit for bit, whichever
// thread computed it first and however many ask at once.
#include <gtest/gtest.h>

#include <latch>
#include <thread>
#include <tuple>
#include <vector>

#include "detect/baseline_internal.h"
#include "detect/process_cache.h"
#include "detect/student_t.h"

namespace dp::detect {
namespace {

// Keys no other test asks for (fractional df), so the first ask computes.
struct Key {
  double p, df, tail_df;
};
std::vector<Key> Keys(double df_offset) {
  std::vector<Key> keys;
  for (double p : {0.9878, 0.999, 1 - 3.4e-6})
    for (double df : {2.0, 4.0, 11.0, 38.0})
      for (double tail : {0.0, 4.0, 10.0}) keys.push_back({p, df + df_offset, tail});
  return keys;
}

double Fresh(const Key& k) {
  return k.tail_df > 2 ? HeavyTQuantile(k.p, k.df, k.tail_df, HeavyTableSource::kFresh)
                       : StudentTQuantile(k.p, k.df);
}

TEST(QuantileCacheTest, CachedQuantilesAreTheComputedOnesBitForBit) {
  for (const Key& k : Keys(0.125)) {
    const double fresh = Fresh(k);
    EXPECT_EQ(CachedQuantile(k.p, k.df, k.tail_df), fresh) << k.p << " " << k.df << " " << k.tail_df;
    // Asked again: read from the cache this time.
    EXPECT_EQ(CachedQuantile(k.p, k.df, k.tail_df), fresh) << k.p << " " << k.df << " " << k.tail_df;
  }
}

TEST(QuantileCacheTest, SharedHeavyTablesAreTheFreshOnesBitForBit) {
  for (double df : {3.375, 9.375})
    for (double tail : {3.0, 5.0, 10.0}) {
      for (double p : {0.9, 0.9878, 0.999999}) {
        EXPECT_EQ(HeavyTQuantile(p, df, tail), HeavyTQuantile(p, df, tail, HeavyTableSource::kFresh))
            << p << " " << df << " " << tail;
      }
      for (double t : {-4.0, 0.5, 2.0, 9.0, 1e4}) {
        EXPECT_EQ(HeavyTToNormalScore(t, df, tail),
                  HeavyTToNormalScore(t, df, tail, HeavyTableSource::kFresh))
            << t << " " << df << " " << tail;
      }
    }
}

TEST(QuantileCacheTest, CachedBothQuantileIsTheComputedOneBitForBit) {
  for (double df : {4.625, 20.625})
    for (double tail : {4.0, 10.0}) {
      const double p = 3.4e-6;
      const double fresh = UncachedBothQuantile(p, df, tail);
      EXPECT_EQ(CachedBothQuantile(p, df, tail), fresh) << df << " " << tail;
      EXPECT_EQ(CachedBothQuantile(p, df, tail), fresh) << df << " " << tail;
    }
}

// Two threads asking for the same keys at once, neither cached yet, one in
// the other's reverse order: both read the values computed afresh.
TEST(QuantileCacheTest, TwoThreadsAskingAtOnceGetTheSameAnswers) {
  const std::vector<Key> keys = Keys(0.3125);
  std::vector<double> a(keys.size()), b(keys.size()), both_a(2), both_b(2);
  std::latch start(2);
  std::thread ta([&] {
    start.arrive_and_wait();
    for (std::size_t i = 0; i < keys.size(); ++i)
      a[i] = CachedQuantile(keys[i].p, keys[i].df, keys[i].tail_df);
    both_a[0] = CachedBothQuantile(3.4e-6, 6.3125, 4);
    both_a[1] = HeavyTToNormalScore(3.0, 6.3125, 4);
  });
  std::thread tb([&] {
    start.arrive_and_wait();
    for (std::size_t i = keys.size(); i-- > 0;)
      b[i] = CachedQuantile(keys[i].p, keys[i].df, keys[i].tail_df);
    both_b[1] = HeavyTToNormalScore(3.0, 6.3125, 4);
    both_b[0] = CachedBothQuantile(3.4e-6, 6.3125, 4);
  });
  ta.join();
  tb.join();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(a[i], b[i]) << i;
    EXPECT_EQ(a[i], Fresh(keys[i])) << i;
  }
  EXPECT_EQ(both_a, both_b);
  EXPECT_EQ(both_a[0], UncachedBothQuantile(3.4e-6, 6.3125, 4));
  EXPECT_EQ(both_a[1], HeavyTToNormalScore(3.0, 6.3125, 4, HeavyTableSource::kFresh));
}

// A full cache keeps what it has and hands the caller its own value; an
// entry is never replaced, so a pointer once given stays valid and unchanged.
TEST(QuantileCacheTest, AFullCacheKeepsItsEntriesAndTakesNoMore) {
  ProcessCache<int, double> cache(2);
  const double* one = cache.Insert(1, 1.5);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(cache.Insert(1, 9.0), one);  // the first insertion is kept
  EXPECT_EQ(*one, 1.5);
  EXPECT_NE(cache.Insert(2, 2.5), nullptr);
  EXPECT_EQ(cache.Insert(3, 3.5), nullptr);  // full
  EXPECT_EQ(cache.Get(4, [] { return 4.5; }), 4.5);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find(1), one);
  EXPECT_EQ(cache.Find(3), nullptr);
}

}  // namespace
}  // namespace dp::detect
