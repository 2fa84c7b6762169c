// The stored latency histogram ("h1 n=.. s=.. lo=.. hi=.. b=IDX:N,..."):
// whatever decodes must encode back to a form that decodes to the same
// histogram, and its percentiles must be finite and within min..max.
#include <cmath>

#include "bench/latency_histogram.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto h = dp::LatencyHistogram::Decode(dp::fuzz::AsText(data, size));
  if (!h.ok()) {
    DP_FUZZ_CHECK(!h.status().message().empty());
    return 0;
  }
  auto again = dp::LatencyHistogram::Decode(h->Encode());
  DP_FUZZ_CHECK(again.ok());
  DP_FUZZ_CHECK(*again == *h);
  for (double q : {0.0, 0.5, 0.99, 1.0}) {
    double v = h->ValueAtQuantile(q);
    DP_FUZZ_CHECK(std::isfinite(v));
    if (h->count() > 0) {
      DP_FUZZ_CHECK(v >= static_cast<double>(h->min_ns()));
      DP_FUZZ_CHECK(v <= static_cast<double>(h->max_ns()));
    }
  }
  h->Summary();
  dp::LatencyHistogram merged = *h;
  merged.Merge(*again);
  merged.Summary();
  return 0;
}
