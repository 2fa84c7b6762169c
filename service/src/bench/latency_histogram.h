// LatencyHistogram: a mergeable log-linear histogram of latencies in
// nanoseconds, the shape fio and HdrHistogram use.
//
// Method and error bound: values below 256 ns get a bucket each (exact); above,
// each power-of-two range [2^e, 2^(e+1)) is split into 128 equal buckets, so a
// bucket is at most 1/128 of its lower edge wide. A percentile is reported as
// the midpoint of its bucket (clamped to the exact min/max), so its relative
// error is at most 1/256 = 0.39% (< 1%). Count, sum (mean), min and max are exact.
//
// Histograms with the same layout merge by adding bucket counts, so percentiles
// of several runs (or of a whole month) can be recomputed from the stored
// strings (Encode/Decode). A plain value type; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "model/bench_result.h"

namespace dp {

class LatencyHistogram {
 public:
  // Bucket layout: 2^kSubBucketBits buckets per power of two.
  static constexpr int kSubBucketBits = 7;

  void Record(std::uint64_t nanos);
  void RecordN(std::uint64_t nanos, std::uint64_t times);
  void Merge(const LatencyHistogram& other);
  void Clear();

  std::uint64_t count() const { return count_; }
  std::uint64_t min_ns() const { return count_ ? min_ : 0; }
  std::uint64_t max_ns() const { return max_; }
  double mean_ns() const { return count_ ? static_cast<double>(sum_) / count_ : 0; }

  // The value at quantile q in [0, 1] (0.5 = median, 0.999 = p99.9); 0 when empty.
  double ValueAtQuantile(double q) const;

  // p50/p90/p99/p99.9/max/mean in microseconds.
  LatencySummary Summary() const;

  // Compact text form for the store: "h1 n=.. s=.. lo=.. hi=.. b=IDX:N,IDX:N"
  // (sparse; indices ascending). Decode accepts exactly what Encode writes.
  std::string Encode() const;
  static Result<LatencyHistogram> Decode(std::string_view text);

  bool operator==(const LatencyHistogram&) const = default;

  // Layout helpers, exposed for tests.
  static std::size_t IndexOf(std::uint64_t nanos);
  static std::uint64_t BucketLow(std::size_t index);
  static std::uint64_t BucketWidth(std::size_t index);

 private:
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  // Sum in nanoseconds: overflows only after ~584 years of accumulated latency.
  std::uint64_t sum_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
};

}  // namespace dp
