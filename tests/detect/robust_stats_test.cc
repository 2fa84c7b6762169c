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

TEST(RobustStats, TheilSenIntervalBracketsTheSlope) {
  // A perfect line: every pair slope is 2, so are both limits.
  std::vector<double> x{0, 1, 2, 3, 4, 5}, y{1, 3, 5, 7, 9, 11};
  SlopeInterval exact = TheilSenInterval(x, y, MannKendallTest(y).var_s, 1.645);
  EXPECT_DOUBLE_EQ(exact.low, 2);
  EXPECT_DOUBLE_EQ(exact.high, 2);
  // Noisy: the limits bracket the estimate and widen with z.
  std::vector<double> t, v;
  const double noise[] = {0.3, -0.5, 0.1, 0.8, -0.2, -0.9, 0.4, 0.6, -0.3, 0.0, 0.7, -0.6};
  for (int i = 0; i < 12; ++i) {
    t.push_back(i);
    v.push_back(0.5 * i + noise[i]);
  }
  const double var_s = MannKendallTest(v).var_s;
  const double slope = TheilSenSlope(t, v);
  SlopeInterval narrow = TheilSenInterval(t, v, var_s, 1.0);
  SlopeInterval wide = TheilSenInterval(t, v, var_s, 2.0);
  EXPECT_LT(narrow.low, slope);
  EXPECT_GT(narrow.high, slope);
  EXPECT_LT(wide.low, narrow.low);
  EXPECT_GT(wide.high, narrow.high);
  EXPECT_GT(wide.low, 0.2);
  EXPECT_LT(wide.high, 0.8);
  // z = 0: the median slope itself (both ranks meet in the middle, +-1).
  SlopeInterval none = TheilSenInterval(t, v, var_s, 0);
  EXPECT_LE(none.low, slope);
  EXPECT_GE(none.high, slope);
  EXPECT_DOUBLE_EQ(TheilSenInterval({1, 1}, {2, 3}, 1, 1.645).low, 0);
}

}  // namespace
}  // namespace dp::detect
