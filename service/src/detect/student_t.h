// Student's t, normal and F distribution functions for the detectors'
// prediction bands. A future run judged against a baseline of n runs whose
// spread is estimated, not known, is Student-t distributed with n-1 degrees
// of freedom (Student 1908; Hahn & Meeker 1991, "Statistical Intervals",
// sec. 4.4), so a band from a normal quantile over an estimated sigma is too
// narrow for small baselines: at n = 5 a "3-sigma" normal band holds 96.0%,
// not 99.87%, of healthy runs. Pure functions, thread-safe.
#pragma once

namespace dp::detect {

// P(T <= t) for Student's t with df > 0 degrees of freedom, through the
// regularized incomplete beta function I_x(df/2, 1/2), x = df / (df + t^2),
// evaluated by its continued fraction (modified Lentz; relative error < 1e-12).
double StudentTCdf(double t, double df);

// The p-quantile of Student's t with df degrees of freedom (0 < p < 1), by
// bisection of StudentTCdf to 1e-10; the normal quantile for df >= 1e6.
double StudentTQuantile(double p, double df);

// Standard normal CDF and its inverse (Acklam's rational approximation refined
// by one Newton step: |error| < 1e-12 on (1e-300, 1 - 1e-16)).
double NormalCdf(double z);
double NormalQuantile(double p);

// The normal deviate with the same upper-tail probability as t under
// Student's t with df degrees of freedom: Phi^-1(F_t(t)). This is the
// self-starting transform of Hawkins (1987, "Self-starting CUSUM charts for
// location and scale", The Statistician 36): a run standardized against an
// estimated baseline becomes an exact N(0,1) score under Gaussian noise, so
// one decision rule holds its false-alarm rate at any baseline size.
double TToNormalScore(double t, double df);

// P(F > f) for Fisher's F with d1 and d2 degrees of freedom (the ratio of two
// independent variance estimates under equal variances), through
// I_x(d2/2, d1/2), x = d2 / (d2 + d1 f).
double FUpperTail(double f, double d1, double d2);

// A heavy-tailed run standardized by a spread estimated from a few runs:
// T = X / (s / sigma), X a unit-variance Student-t of tail_df > 2 degrees of
// freedom (the metric's own tails: latency percentiles, access times), and
// (s / sigma)^2 ~ chi2_df / df. Both parts make T heavier-tailed than either
// alone, and the larger of the two quantiles (what the bands took before)
// is too narrow where both matter: for a 6-run baseline of t(4) runs the
// 4.5-sigma band was passed 9 times as often as 4.5 sigmas allow, for a
// 10-run baseline of t(10) runs 6 times (a seeded Monte Carlo; with this
// distribution 0.8-1.5 times). Not exact for heavy-tailed runs either (the
// spread of such runs is not chi-square), but the calibration says it holds.
// P(T > t), by quadrature over log(chi2 / df); the normal-numerator case
// (tail_df <= 2) is Student's t itself.
double HeavyTUpper(double t, double df, double tail_df);

// Its p-quantile and the normal deviate with the same tail probability (as
// TToNormalScore), from a table of P(T > t) per (df, tail_df): both are asked
// for each judged run, and the quadrature costs ~0.1 ms a point. The table is
// built once per process and shared by every thread (kShared;
// process_cache.h); kFresh builds it for the call, the same values bit for
// bit (what the tests compare the shared table with).
enum class HeavyTableSource { kShared, kFresh };
double HeavyTQuantile(double p, double df, double tail_df,
                      HeavyTableSource source = HeavyTableSource::kShared);
double HeavyTToNormalScore(double t, double df, double tail_df,
                           HeavyTableSource source = HeavyTableSource::kShared);

// The q at which two such runs judged against the same estimated spread are
// both beyond q with probability p: E[P(X > q r)^power] = p over the spread
// r = s / sigma (power 2 for independent runs; less allows for what a run
// and its re-test share). By bisection; tail_df > 2.
double HeavyTBothQuantile(double p, double df, double tail_df, double power);

}  // namespace dp::detect
