#include "store/zfs_histogram_codec.h"

#include <cstdint>

namespace dp {
namespace {

constexpr std::size_t kMaxBuckets = 64;

void PutVarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view& in, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) return false;
    auto byte = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

void PutCounts(std::string& out, const std::vector<std::uint64_t>& counts) {
  std::size_t first = 0, last = counts.size();
  while (first < last && counts[first] == 0) ++first;
  while (last > first && counts[last - 1] == 0) --last;
  if (counts.empty()) {
    PutVarint(out, 0);  // not known
    return;
  }
  // Known: the span (possibly empty, all zero) and the full length, so a
  // decoded histogram has the buckets it had.
  PutVarint(out, counts.size());
  PutVarint(out, first);
  PutVarint(out, last - first);
  for (std::size_t i = first; i < last; ++i) PutVarint(out, counts[i]);
}

bool GetCounts(std::string_view& in, std::vector<std::uint64_t>& counts) {
  std::uint64_t size = 0, first = 0, n = 0;
  if (!GetVarint(in, size)) return false;
  if (size == 0) return true;
  if (size > kMaxBuckets || !GetVarint(in, first) || !GetVarint(in, n) || first + n > size)
    return false;
  counts.assign(size, 0);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!GetVarint(in, counts[first + i])) return false;
  }
  return true;
}

}  // namespace

std::string EncodeZfsWaitHistogram(const ZfsWaitHistogram& h) {
  std::string out;
  PutVarint(out, static_cast<std::uint64_t>(h.seconds < 0 ? 0 : h.seconds));
  PutCounts(out, h.read);
  PutCounts(out, h.write);
  return out;
}

std::optional<ZfsWaitHistogram> DecodeZfsWaitHistogram(std::string_view bytes) {
  ZfsWaitHistogram h;
  std::uint64_t seconds = 0;
  if (!GetVarint(bytes, seconds) || seconds > (1ULL << 40)) return std::nullopt;
  h.seconds = static_cast<std::int64_t>(seconds);
  if (!GetCounts(bytes, h.read) || !GetCounts(bytes, h.write) || !bytes.empty())
    return std::nullopt;
  return h;
}

}  // namespace dp
