#include "detect/robust_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dp::detect {
namespace {

TEST(RobustStats, MedianOddEvenEmpty) {
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(Median({}), 0);
}

TEST(RobustStats, MadIgnoresOneWildValue) {
  // deviations from 10: 0,1,1,2,990 -> MAD 1
  EXPECT_DOUBLE_EQ(Mad({10, 11, 9, 12, 1000}), 1);
}

TEST(RobustStats, TheilSenRecoversSlopeDespiteOutliers) {
  std::vector<double> x, y;
  for (int i = 0; i < 20; ++i) {
    x.push_back(i);
    y.push_back(100 - 2.0 * i);
  }
  y[3] = 500;  // two wild points
  y[15] = -400;
  EXPECT_DOUBLE_EQ(TheilSenSlope(x, y), -2.0);
}

TEST(RobustStats, MannKendallSeesMonotonicTrendAndNotAFlatOne) {
  std::vector<double> up, flat;
  for (int i = 0; i < 20; ++i) {
    up.push_back(i + (i % 3) * 0.5);
    flat.push_back(5);
  }
  MannKendall a = MannKendallTest(up);
  EXPECT_GT(a.s, 0);
  EXPECT_LT(a.p_increasing, 1e-4);
  EXPECT_GT(a.p_decreasing, 0.99);
  MannKendall b = MannKendallTest(flat);
  EXPECT_EQ(b.s, 0);
  EXPECT_GE(b.p_increasing, 0.5);
}

TEST(RobustStats, MannKendallVarianceMatchesTextbookForN10) {
  std::vector<double> y = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  MannKendall r = MannKendallTest(y);
  EXPECT_DOUBLE_EQ(r.s, 45);
  EXPECT_DOUBLE_EQ(r.var_s, 10.0 * 9 * 25 / 18);  // 125
  EXPECT_NEAR(r.z, 44 / std::sqrt(125.0), 1e-12);
}

}  // namespace
}  // namespace dp::detect
