#include "detect/robust_stats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace dp::detect {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  double lower = *std::max_element(v.begin(), v.begin() + mid);
  return (lower + upper) / 2;
}

double Mad(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double m = Median(values);
  std::vector<double> dev;
  dev.reserve(values.size());
  for (double v : values) dev.push_back(std::fabs(v - m));
  return Median(std::move(dev));
}

double MadSmallSampleFactor(int n) {
  static const double kTable[] = {1.0, 1.0, 1.196, 1.495, 1.363, 1.206, 1.200, 1.140, 1.129, 1.107};
  if (n < 0) return 1.0;
  if (n <= 9) return kTable[n];
  return n / (n - 0.8);
}

double TheilSenSlope(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> slopes;
  std::size_t n = std::min(x.size(), y.size());
  slopes.reserve(n * (n - 1) / 2 + 1);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (x[j] == x[i]) continue;
      slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
    }
  }
  return Median(std::move(slopes));
}

SlopeInterval TheilSenInterval(const std::vector<double>& x, const std::vector<double>& y,
                               double var_s, double z) {
  std::vector<double> slopes;
  const std::size_t n = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (x[j] != x[i]) slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
  if (slopes.empty()) return {};
  std::sort(slopes.begin(), slopes.end());
  const double count = static_cast<double>(slopes.size());
  const double c = z * std::sqrt(std::max(0.0, var_s));
  // The slope of 1-based rank r, linearly interpolated and clamped.
  auto at_rank = [&](double r) {
    const double i = std::clamp(r - 1, 0.0, count - 1);
    const auto lo = static_cast<std::size_t>(std::floor(i));
    const std::size_t hi = std::min(lo + 1, slopes.size() - 1);
    return slopes[lo] + (slopes[hi] - slopes[lo]) * (i - std::floor(i));
  };
  return {at_rank((count - c) / 2), at_rank((count + c) / 2 + 1)};
}

double NormalUpperTail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

MannKendall MannKendallTest(const std::vector<double>& y) {
  MannKendall r;
  const std::size_t n = y.size();
  if (n < 3) return r;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (y[j] > y[i])
        r.s += 1;
      else if (y[j] < y[i])
        r.s -= 1;
    }
  }
  std::map<double, int> ties;
  for (double v : y) ++ties[v];
  double nn = static_cast<double>(n);
  double var = nn * (nn - 1) * (2 * nn + 5);
  for (const auto& [v, t] : ties) {
    if (t > 1) var -= static_cast<double>(t) * (t - 1) * (2.0 * t + 5);
  }
  r.var_s = var / 18.0;
  if (r.var_s <= 0) return r;
  if (r.s > 0)
    r.z = (r.s - 1) / std::sqrt(r.var_s);
  else if (r.s < 0)
    r.z = (r.s + 1) / std::sqrt(r.var_s);
  r.p_increasing = NormalUpperTail(r.z);
  r.p_decreasing = NormalUpperTail(-r.z);
  return r;
}

}  // namespace dp::detect
