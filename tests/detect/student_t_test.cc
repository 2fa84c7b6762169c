#include "detect/student_t.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dp::detect {
namespace {

// Reference values from the tables of Student's t (e.g. Abramowitz & Stegun
// table 26.10) and of the normal distribution.
TEST(StudentT, CdfMatchesTables) {
  EXPECT_NEAR(StudentTCdf(0, 4), 0.5, 1e-12);
  EXPECT_NEAR(StudentTCdf(2.132, 4), 0.95, 1e-4);
  EXPECT_NEAR(StudentTCdf(4.604, 4), 0.995, 1e-4);
  EXPECT_NEAR(StudentTCdf(-2.086, 20), 0.025, 1e-4);
  EXPECT_NEAR(StudentTCdf(12.706, 1), 0.975, 1e-4);  // Cauchy
  EXPECT_NEAR(StudentTCdf(1.96, 1e7), 0.975, 1e-4);
  EXPECT_EQ(StudentTCdf(INFINITY, 3), 1);
  EXPECT_EQ(StudentTCdf(-INFINITY, 3), 0);
  EXPECT_TRUE(std::isnan(StudentTCdf(NAN, 3)));
  EXPECT_TRUE(std::isnan(StudentTCdf(1, 0)));
}

// F tables (e.g. Abramowitz & Stegun table 26.9) and the closed form for
// d1 = 2: P(F > f) = (1 + 2 f / d2)^(-d2 / 2).
TEST(StudentT, FUpperTailMatchesTables) {
  EXPECT_NEAR(FUpperTail(4.43, 4, 20), 0.01, 2e-4);
  EXPECT_NEAR(FUpperTail(10.05, 10, 5), 0.01, 2e-4);
  EXPECT_NEAR(FUpperTail(2.87, 4, 20), 0.05, 5e-4);
  EXPECT_NEAR(FUpperTail(4.10, 2, 10), std::pow(1 + 2 * 4.10 / 10, -5), 1e-10);
  EXPECT_EQ(FUpperTail(0, 3, 7), 1);
  EXPECT_EQ(FUpperTail(INFINITY, 3, 7), 0);
  EXPECT_TRUE(std::isnan(FUpperTail(1, 0, 7)));
  EXPECT_TRUE(std::isnan(FUpperTail(NAN, 3, 7)));
}

TEST(StudentT, QuantileInvertsCdf) {
  EXPECT_NEAR(StudentTQuantile(0.975, 4), 2.776, 1e-3);
  EXPECT_NEAR(StudentTQuantile(0.999, 10), 4.144, 1e-3);
  EXPECT_NEAR(StudentTQuantile(0.025, 30), -2.042, 1e-3);
  for (double df : {1.0, 3.0, 7.5, 40.0, 500.0})
    for (double p : {1e-6, 0.01, 0.3, 0.9, 0.9999})
      EXPECT_NEAR(StudentTCdf(StudentTQuantile(p, df), df), p, 1e-8 + 1e-6 * p);
  EXPECT_TRUE(std::isnan(StudentTQuantile(0, 4)));
  EXPECT_TRUE(std::isnan(StudentTQuantile(1, 4)));
}

TEST(StudentT, NormalQuantileIsAccurate) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959964, 1e-6);
  EXPECT_NEAR(NormalQuantile(1e-10), -6.361341, 1e-5);
  EXPECT_NEAR(NormalQuantile(0.5), 0, 1e-12);
  for (double z : {-8.0, -3.0, -0.5, 0.7, 2.5, 5.0}) EXPECT_NEAR(NormalQuantile(NormalCdf(z)), z, 1e-7);
}

// The self-starting score has the t tail probability: a large t from a
// small baseline is a modest normal score.
TEST(StudentT, NormalScoreKeepsTheTailProbability) {
  EXPECT_NEAR(TToNormalScore(4.604, 4), NormalQuantile(0.995), 1e-3);
  EXPECT_NEAR(TToNormalScore(-2.086, 20), NormalQuantile(0.025), 1e-3);
  // P(t4 > 10) = 2.8e-4: a "10 sigma" run over 5 baseline runs is a 3.45 sigma event.
  EXPECT_NEAR(TToNormalScore(10, 4), 3.45, 0.01);
  EXPECT_NEAR(TToNormalScore(3, 1e7), 3, 1e-9);
  EXPECT_GT(TToNormalScore(1e6, 4), 5);  // far tails stay finite and ordered
  EXPECT_GT(TToNormalScore(1e6, 4), TToNormalScore(1e5, 4));
}

}  // namespace
}  // namespace dp::detect
