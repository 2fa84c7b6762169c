// The compact histogram form of the store: round trips (unknown sides stay
// unknown, all-zero stays all-zero with its length), its size for an hour of
// a busy disk, and refused garbage.
#include "store/zfs_histogram_codec.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(ZfsHistogramCodecTest, RoundTripKeepsBucketsAndUnknownSides) {
  ZfsWaitHistogram h;
  h.seconds = 3600;
  h.read.assign(37, 0);
  // An hour of a busy 7200 rpm disk: 65 us .. 268 ms.
  const std::uint64_t counts[] = {12,    85,    410,  1020, 3100, 8800, 21000,
                                  38200, 27400, 9400, 1800, 240,  31,   3};
  for (std::size_t i = 0; i < std::size(counts); ++i) h.read[15 + i] = counts[i];
  std::string bytes = EncodeZfsWaitHistogram(h);
  EXPECT_LE(bytes.size(), 40u);  // 14 buckets kept, write unknown
  auto back = DecodeZfsWaitHistogram(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->seconds, 3600);
  EXPECT_EQ(back->read, h.read);
  EXPECT_TRUE(back->write.empty());

  ZfsWaitHistogram idle;
  idle.seconds = 600;
  idle.read.assign(37, 0);
  idle.write.assign(37, 0);
  std::string idle_bytes = EncodeZfsWaitHistogram(idle);
  EXPECT_LE(idle_bytes.size(), 8u);
  auto idle_back = DecodeZfsWaitHistogram(idle_bytes);
  ASSERT_TRUE(idle_back);
  EXPECT_EQ(idle_back->read, idle.read);
  EXPECT_EQ(idle_back->write, idle.write);
}

TEST(ZfsHistogramCodecTest, GarbageIsRefused) {
  EXPECT_FALSE(DecodeZfsWaitHistogram(""));
  ZfsWaitHistogram h;
  h.seconds = 60;
  h.read = {0, 5, 7};
  h.write = {1};
  std::string bytes = EncodeZfsWaitHistogram(h);
  ASSERT_TRUE(DecodeZfsWaitHistogram(bytes));
  EXPECT_FALSE(DecodeZfsWaitHistogram(bytes.substr(0, bytes.size() - 1)));         // truncated
  EXPECT_FALSE(DecodeZfsWaitHistogram(bytes + "x"));                               // trailing bytes
  std::string huge = std::string("\x3c") + "\xc8\x01" + "\x00" + "\x01" + "\x05";  // 200 buckets
  EXPECT_FALSE(DecodeZfsWaitHistogram(huge));
  EXPECT_FALSE(DecodeZfsWaitHistogram(std::string(12, '\xff')));  // endless varint
}

TEST(ZfsHistogramQuantileTest, NearestRankOnTheBuckets) {
  std::vector<std::uint64_t> c(37, 0);
  EXPECT_FALSE(ZfsHistogramQuantile(c, 0.5));
  c[19] = 90;  // <= 1.05 ms
  c[24] = 9;   // <= 33.6 ms
  c[28] = 1;   // <= 537 ms
  EXPECT_NEAR(*ZfsHistogramQuantile(c, 0.5), 0.001048575, 1e-12);
  EXPECT_NEAR(*ZfsHistogramQuantile(c, 0.9), 0.001048575, 1e-12);
  EXPECT_NEAR(*ZfsHistogramQuantile(c, 0.99), 0.033554431, 1e-12);
  EXPECT_NEAR(*ZfsHistogramQuantile(c, 1.0), 0.536870911, 1e-12);
  EXPECT_FALSE(ZfsHistogramQuantile(c, 0.0));
  EXPECT_FALSE(ZfsHistogramQuantile(c, 1.5));
}

}  // namespace
}  // namespace dp
