#include "bench/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>

namespace dp {
namespace {

constexpr std::uint64_t kSubBuckets = 1ULL << LatencyHistogram::kSubBucketBits;
// Indices above this cannot come from a uint64 (shift 56, mantissa < 256).
constexpr std::size_t kMaxIndex = 57 * kSubBuckets + 2 * kSubBuckets;

int ShiftOfIndex(std::size_t index) {
  if (index < 2 * kSubBuckets) return 0;
  return static_cast<int>(index / kSubBuckets) - 1;
}

bool ParseU64(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::size_t LatencyHistogram::IndexOf(std::uint64_t v) {
  int width = std::bit_width(v);
  int shift = std::max(0, width - (kSubBucketBits + 1));
  return static_cast<std::size_t>(shift) * kSubBuckets + (v >> shift);
}

std::uint64_t LatencyHistogram::BucketLow(std::size_t index) {
  int shift = ShiftOfIndex(index);
  return (index - static_cast<std::uint64_t>(shift) * kSubBuckets) << shift;
}

std::uint64_t LatencyHistogram::BucketWidth(std::size_t index) {
  return 1ULL << ShiftOfIndex(index);
}

void LatencyHistogram::Record(std::uint64_t nanos) { RecordN(nanos, 1); }

void LatencyHistogram::RecordN(std::uint64_t nanos, std::uint64_t times) {
  if (times == 0) return;
  std::size_t i = IndexOf(nanos);
  if (i >= buckets_.size()) buckets_.resize(i + 1, 0);
  buckets_[i] += times;
  count_ += times;
  sum_ += nanos * times;
  min_ = std::min(min_, nanos);
  max_ = std::max(max_, nanos);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  if (other.buckets_.size() > buckets_.size()) buckets_.resize(other.buckets_.size(), 0);
  for (std::size_t i = 0; i < other.buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

void LatencyHistogram::Clear() { *this = LatencyHistogram(); }

double LatencyHistogram::ValueAtQuantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // Rank of the sample wanted (1-based): the smallest r with r >= q * count.
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::clamp<std::uint64_t>(rank, 1, count_);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= rank) {
      double mid =
          static_cast<double>(BucketLow(i)) + (static_cast<double>(BucketWidth(i)) - 1) / 2;
      return std::clamp(mid, static_cast<double>(min_), static_cast<double>(max_));
    }
  }
  return static_cast<double>(max_);
}

LatencySummary LatencyHistogram::Summary() const {
  LatencySummary s;
  s.p50_us = ValueAtQuantile(0.50) / 1e3;
  s.p90_us = ValueAtQuantile(0.90) / 1e3;
  s.p99_us = ValueAtQuantile(0.99) / 1e3;
  s.p999_us = ValueAtQuantile(0.999) / 1e3;
  s.max_us = static_cast<double>(max_) / 1e3;
  s.mean_us = mean_ns() / 1e3;
  return s;
}

std::string LatencyHistogram::Encode() const {
  std::string out = "h1 n=" + std::to_string(count_) + " s=" + std::to_string(sum_) +
                    " lo=" + std::to_string(min_ns()) + " hi=" + std::to_string(max_) + " b=";
  bool first = true;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    if (!buckets_[i]) continue;
    if (!first) out += ',';
    first = false;
    out += std::to_string(i) + ':' + std::to_string(buckets_[i]);
  }
  return out;
}

Result<LatencyHistogram> LatencyHistogram::Decode(std::string_view text) {
  auto bad = [&](std::string_view why) {
    return Corrupt("latency histogram: " + std::string(why));
  };
  auto field = [&](std::string_view& rest, std::string_view key, std::string_view& value) -> bool {
    if (rest.substr(0, key.size()) != key) return false;
    rest.remove_prefix(key.size());
    auto sp = rest.find(' ');
    value = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    return true;
  };
  std::string_view rest = text, v;
  LatencyHistogram h;
  std::uint64_t n = 0, s = 0, lo = 0, hi = 0;
  if (text.substr(0, 3) != "h1 ") return bad("not a version-1 histogram");
  rest = text.substr(3);
  if (!field(rest, "n=", v) || !ParseU64(v, n)) return bad("bad count");
  if (!field(rest, "s=", v) || !ParseU64(v, s)) return bad("bad sum");
  if (!field(rest, "lo=", v) || !ParseU64(v, lo)) return bad("bad min");
  if (!field(rest, "hi=", v) || !ParseU64(v, hi)) return bad("bad max");
  if (rest.substr(0, 2) != "b=") return bad("missing buckets");
  rest.remove_prefix(2);
  std::uint64_t total = 0;
  std::size_t last = 0;
  bool any = false;
  while (!rest.empty()) {
    auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    auto colon = item.find(':');
    std::uint64_t idx = 0, cnt = 0;
    if (colon == std::string_view::npos || !ParseU64(item.substr(0, colon), idx) ||
        !ParseU64(item.substr(colon + 1), cnt) || cnt == 0)
      return bad("bad bucket '" + std::string(item) + "'");
    if (idx >= kMaxIndex || (any && idx <= last)) return bad("bucket index out of order or range");
    if (idx >= h.buckets_.size()) h.buckets_.resize(idx + 1, 0);
    h.buckets_[idx] = cnt;
    total += cnt;
    last = idx;
    any = true;
  }
  if (total != n) return bad("bucket counts do not add up to n");
  if (n > 0 && (lo > hi || IndexOf(lo) > IndexOf(hi))) return bad("min above max");
  h.count_ = n;
  h.sum_ = s;
  h.min_ = n ? lo : UINT64_MAX;
  h.max_ = hi;
  return h;
}

}  // namespace dp
