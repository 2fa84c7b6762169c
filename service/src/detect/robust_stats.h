// Robust statistics used by the detectors: median, MAD, Theil-Sen slope and
// the Mann-Kendall trend test. Pure functions, thread-safe.
#pragma once

#include <cstddef>
#include <vector>

namespace dp::detect {

// Median of values (the mean of the two middle ones for an even count); 0 for
// an empty input.
double Median(std::vector<double> values);

// Median absolute deviation from the median (unscaled). For normal data
// 1.4826 * MAD estimates the standard deviation (Hampel 1974; Rousseeuw &
// Croux 1993, "Alternatives to the median absolute deviation").
double Mad(const std::vector<double>& values);
inline constexpr double kMadToSigma = 1.4826;
// Small-sample correction factor b_n of the MAD (Croux & Rousseeuw 1992,
// "Time-efficient algorithms for two highly robust estimators of scale"):
// 1.4826 * b_n * MAD is unbiased for the normal sigma at n runs. n/(n-0.8)
// beyond n = 9; 1 for n < 2.
double MadSmallSampleFactor(int n);

// Theil-Sen estimator (Theil 1950; Sen 1968): the median of the slopes
// (y_j - y_i) / (x_j - x_i) over all pairs with x_i != x_j. Robust to up to
// ~29% outliers. O(n^2) pairs; callers bound n. 0 with fewer than two x.
double TheilSenSlope(const std::vector<double>& x, const std::vector<double>& y);

// Mann-Kendall test for a monotonic trend (Mann 1945; Kendall 1975): S is the
// sum of sign(y_j - y_i) over pairs i < j in time order; Var(S) with the tie
// correction n(n-1)(2n+5) - sum t(t-1)(2t+5), all over 18; Z with the +-1
// continuity correction; p-values from the normal approximation (fine for
// n >= 10; conservative below).
struct MannKendall {
  double s = 0;
  double var_s = 0;
  double z = 0;
  double p_increasing = 1;  // one-sided p-value for an upward trend
  double p_decreasing = 1;  // one-sided p-value for a downward trend
};
MannKendall MannKendallTest(const std::vector<double>& y_in_time_order);

// Confidence limits of the Theil-Sen slope (Sen 1968; the procedure in
// Gilbert 1987, "Statistical Methods for Environmental Pollution Monitoring",
// sec. 16.5.1): with N' pair slopes in ascending order and C = z sqrt(Var S)
// (Var S of the Mann-Kendall test), the limits are the slopes of rank
// (N' - C)/2 and (N' + C)/2 + 1, interpolated between ranks. z = 1.645 gives
// one-sided 95% bounds. {0, 0} with fewer than two distinct x.
struct SlopeInterval {
  double low = 0, high = 0;
};
SlopeInterval TheilSenInterval(const std::vector<double>& x, const std::vector<double>& y,
                               double var_s, double z);

// Standard normal upper tail P(Z > z).
double NormalUpperTail(double z);

}  // namespace dp::detect
