#include "detect/downsample.h"

#include <algorithm>

namespace dp::detect {

std::vector<Sample> DownsampleExtremes(const std::vector<Sample>& in, std::size_t points) {
  points = std::max<std::size_t>(points, 2);
  if (in.size() <= points) return in;
  const std::size_t stretches = points / 2;
  const std::size_t n = in.size();
  std::vector<Sample> out;
  out.reserve(stretches * 2);
  for (std::size_t s = 0; s < stretches; ++s) {
    const std::size_t begin = s * n / stretches;
    const std::size_t end = (s + 1) * n / stretches;
    const bool any_good =
        std::any_of(in.begin() + begin, in.begin() + end, [](const Sample& x) { return x.Good(); });
    std::size_t lo = end, hi = end;
    for (std::size_t i = begin; i < end; ++i) {
      if (any_good && !in[i].Good()) continue;
      if (lo == end || in[i].value < in[lo].value) lo = i;
      if (hi == end || in[i].value > in[hi].value) hi = i;
    }
    if (lo == end) continue;  // an empty stretch (never: n > points)
    out.push_back(in[std::min(lo, hi)]);
    if (lo != hi) out.push_back(in[std::max(lo, hi)]);
  }
  return out;
}

}  // namespace dp::detect
