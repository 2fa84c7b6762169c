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

// A heavy-tailed run over an estimated spread: Student's t itself when the
// run is normal, the run's own unit-variance t when the spread is all but
// known, symmetric, and its quantile and score agree with its tail.
TEST(StudentT, HeavyTIsBetweenItsTwoLimits) {
  for (double t : {0.5, 2.0, 6.0}) {
    EXPECT_NEAR(HeavyTUpper(t, 5, 0), 1 - StudentTCdf(t, 5), 1e-12);
    // df 1e5: s is sigma to 0.3%; a unit-variance t(4) is t(4) / sqrt(2).
    EXPECT_NEAR(HeavyTUpper(t, 1e5, 4), 1 - StudentTCdf(t * std::sqrt(2.0), 4),
                2e-3 * (1 - StudentTCdf(t * std::sqrt(2.0), 4)));
    EXPECT_NEAR(HeavyTUpper(-t, 9, 4), 1 - HeavyTUpper(t, 9, 4), 1e-12);
  }
  // In the far tail heavier than either part alone (nearer the centre a
  // unit-variance t has less mass than a normal).
  for (double t : {6.0, 20.0}) {
    EXPECT_GT(HeavyTUpper(t, 5, 4), 1 - StudentTCdf(t, 5));
    EXPECT_GT(HeavyTUpper(t, 5, 4), 1 - StudentTCdf(t * std::sqrt(2.0), 4));
  }
  EXPECT_NEAR(HeavyTUpper(0, 7, 10), 0.5, 1e-9);
  for (double df : {4.0, 9.0, 120.0})
    for (double tail : {4.0, 10.0})
      for (double p : {0.6, 0.99, 1 - 3.4e-6}) {
        const double q = HeavyTQuantile(p, df, tail);
        EXPECT_NEAR(HeavyTUpper(q, df, tail), 1 - p, 2e-3 * (1 - p)) << df << " " << tail;
        EXPECT_NEAR(HeavyTToNormalScore(q, df, tail), NormalQuantile(p), 2e-3);
        EXPECT_NEAR(HeavyTQuantile(1 - p, df, tail), -q, 1e-9 * q);
      }
  EXPECT_EQ(HeavyTToNormalScore(0, 5, 4), 0);
  EXPECT_NEAR(HeavyTQuantile(0.975, 4, 0), StudentTQuantile(0.975, 4), 1e-12);
  EXPECT_TRUE(std::isnan(HeavyTQuantile(1, 4, 4)));
  EXPECT_TRUE(std::isnan(HeavyTUpper(NAN, 4, 4)));
  EXPECT_TRUE(std::isnan(HeavyTToNormalScore(NAN, 4, 4)));
  EXPECT_GT(HeavyTToNormalScore(1e7, 4, 4), HeavyTToNormalScore(1e6, 4, 4));
}

// Two heavy-tailed runs both beyond q (the pair rule for latency
// percentiles, baseline.h): with a known spread and independent runs,
// P(X > q)^2 = p; a smaller power (a run and its re-test share part of
// their environment) and a young spread (both runs judged against the same
// estimate) each ask for a larger q.
TEST(StudentT, BothBeyondQuantile) {
  const double p = NormalCdf(-4.5);
  for (double tail : {4.0, 10.0}) {
    // 2000 degrees of freedom: a spread known to 1.6%.
    const double known = HeavyTBothQuantile(p, 2000, tail, 2);
    EXPECT_NEAR(HeavyTUpper(known, 2000, tail), std::sqrt(p), 0.02 * std::sqrt(p)) << tail;
    const double shared = HeavyTBothQuantile(p, 2000, tail, 1.6);
    EXPECT_NEAR(HeavyTUpper(shared, 2000, tail), std::pow(p, 1 / 1.6), 0.02 * std::pow(p, 1 / 1.6));
    EXPECT_GT(shared, known);
    // Young: more than each run's own tail at sqrt(p) over the same spread.
    EXPECT_GT(HeavyTBothQuantile(p, 5, tail, 2), HeavyTQuantile(1 - std::sqrt(p), 5, tail));
    EXPECT_GT(HeavyTBothQuantile(p, 5, tail, 2), HeavyTBothQuantile(p, 40, tail, 2));
  }
  EXPECT_TRUE(std::isnan(HeavyTBothQuantile(0, 5, 4, 2)));
  EXPECT_TRUE(std::isnan(HeavyTBothQuantile(p, 5, 0, 2)));
  EXPECT_TRUE(std::isnan(HeavyTBothQuantile(p, 0, 4, 2)));
}

}  // namespace
}  // namespace dp::detect
