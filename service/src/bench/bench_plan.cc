#include "bench/bench_plan.h"

#include <algorithm>
#include <cstdio>

namespace dp {
namespace {

constexpr std::uint32_t kMiB = 1 << 20;

std::uint64_t AlignDown(std::uint64_t v, std::uint64_t a) { return v - v % a; }

std::string FractionLabel(double f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", f);
  return buf;
}

// Shares the test's budgets among points with the given weights and sets a
// warm-up of a tenth of each point's budget (at most 0.5 s).
void SplitBudget(std::vector<Workload>& points, const std::vector<double>& weights,
                 const BenchOptions& o) {
  double total = 0;
  for (double w : weights) total += w;
  for (std::size_t i = 0; i < points.size(); ++i) {
    Workload& p = points[i];
    double share = weights[i] / total;
    p.seconds = o.seconds * share;
    p.max_bytes =
        std::max<std::uint64_t>(p.block_size, static_cast<std::uint64_t>(o.max_bytes * share));
    p.warmup_seconds = std::min(0.5, p.seconds * 0.1);
    p.warmup_bytes = std::max<std::uint64_t>(p.block_size, p.max_bytes / 10);
    p.seed = o.seed;
  }
}

Workload Sequential(const char* test, std::uint32_t bs, std::uint32_t qd, std::uint64_t begin,
                    std::uint64_t end) {
  Workload w;
  w.test = test;
  w.pattern = AccessPattern::kSequential;
  w.block_size = bs;
  w.queue_depth = qd;
  w.region_begin = begin;
  w.region_end = end;
  return w;
}

// The seek test: three strokes (full, half, quarter of the device) read in
// pairs, and a short stride each way from the middle.
void PlanSeek(std::uint64_t size, std::uint32_t bs, std::vector<Workload>& pts,
              std::vector<double>& weights) {
  std::uint64_t end = AlignDown(size, bs);
  auto stroke = [&](const char* label, double fraction) {
    Workload w;
    w.test = "seek";
    w.stroke = label;
    w.pattern = AccessPattern::kStroke;
    w.block_size = bs;
    w.queue_depth = 1;
    w.region_end = end;
    w.stroke_bytes = AlignDown(static_cast<std::uint64_t>(size * fraction), bs);
    // Creep a little each pair so no read is answered from the drive's cache.
    w.stride =
        static_cast<std::int64_t>(std::max<std::uint64_t>(bs, AlignDown(size / 4096, bs)));
    pts.push_back(w);
    weights.push_back(1);
  };
  stroke("full", 0.97);
  stroke("half", 0.5);
  stroke("quarter", 0.25);
  for (int dir : {1, -1}) {
    Workload w;
    w.test = "seek";
    w.stroke = dir > 0 ? "short_forward" : "short_backward";
    w.pattern = AccessPattern::kStride;
    w.block_size = bs;
    w.queue_depth = 1;
    w.region_end = end;
    w.start = AlignDown(size / 2, bs);
    w.stride = dir * static_cast<std::int64_t>(std::max<std::uint32_t>(bs, kMiB));
    pts.push_back(w);
    weights.push_back(1);
  }
}

}  // namespace

Result<std::vector<Workload>> PlanReadTest(BenchTest test, const DeviceInfo& dev,
                                           const BenchOptions& o) {
  const std::uint64_t size = dev.size_bytes;
  const std::uint32_t lbs = dev.logical_block_size;
  if (o.block_size && o.block_size % lbs)
    return InvalidArgument("--bs " + std::to_string(o.block_size) +
                           " is not a multiple of the device's block size " + std::to_string(lbs));
  const std::uint32_t small = std::max<std::uint32_t>(4096, lbs);
  std::vector<Workload> pts;
  std::vector<double> weights;

  switch (test) {
    case BenchTest::kSeq:
    case BenchTest::kParallel: {
      std::uint32_t bs = o.block_size ? o.block_size : kMiB;
      Workload w = Sequential(test == BenchTest::kSeq ? "seq" : "parallel", bs,
                              o.queue_depth ? o.queue_depth : 8, 0, AlignDown(size, bs));
      pts.push_back(w);
      weights = {1};
      break;
    }
    case BenchTest::kZones: {
      std::uint32_t bs = o.block_size ? o.block_size : kMiB;
      std::uint32_t qd = o.queue_depth ? o.queue_depth : 8;
      std::size_t n = 3 + static_cast<std::size_t>(o.zone_sweep_points);
      std::uint64_t len = AlignDown(std::min<std::uint64_t>(size / 8, o.max_bytes / n), bs);
      if (len < static_cast<std::uint64_t>(bs) * qd) len = static_cast<std::uint64_t>(bs) * qd;
      auto at = [&](double f, std::string label) {
        std::uint64_t room = size >= len ? size - len : 0;
        std::uint64_t begin = AlignDown(static_cast<std::uint64_t>(room * f), bs);
        Workload w = Sequential("zones", bs, qd, begin, std::min(size, begin + len));
        w.zone = std::move(label);
        pts.push_back(w);
        weights.push_back(1);
      };
      at(0, "outer");
      at(0.5, "middle");
      at(1, "inner");
      for (int i = 0; i < o.zone_sweep_points; ++i) {
        double f = static_cast<double>(i) / (o.zone_sweep_points - 1);
        at(f, FractionLabel(f));
      }
      break;
    }
    case BenchTest::kSeek: {
      std::uint32_t bs = o.block_size ? o.block_size : small;
      PlanSeek(size, bs, pts, weights);
      break;
    }
    case BenchTest::kRandom: {
      std::uint32_t bs = o.block_size ? o.block_size : small;
      std::vector<std::uint32_t> qds = o.queue_depth ? std::vector<std::uint32_t>{o.queue_depth}
                                                     : std::vector<std::uint32_t>{1, 32};
      for (std::uint32_t qd : qds) {
        Workload w;
        w.test = "random";
        w.pattern = AccessPattern::kRandom;
        w.block_size = bs;
        w.queue_depth = qd;
        w.region_end = AlignDown(size, bs);
        pts.push_back(w);
        weights.push_back(1);
      }
      break;
    }
    case BenchTest::kSweep: {
      std::uint32_t qd = o.queue_depth ? o.queue_depth : 1;
      std::vector<std::uint32_t> sizes;
      for (std::uint32_t bs = small; bs <= kMiB; bs *= 2) sizes.push_back(bs);
      std::uint64_t slice = AlignDown(std::max<std::uint64_t>(size / 8, kMiB) / sizes.size(), kMiB);
      slice = std::min<std::uint64_t>(slice, AlignDown(o.max_bytes / sizes.size(), kMiB));
      slice = std::max<std::uint64_t>(slice, static_cast<std::uint64_t>(kMiB) * qd);
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        std::uint64_t begin = i * slice;
        pts.push_back(Sequential("sweep", sizes[i], qd, begin, std::min(size, begin + slice)));
        weights.push_back(1);
      }
      break;
    }
    case BenchTest::kPoolWrite:
      return InvalidArgument("pool-write is not a read test");
  }
  SplitBudget(pts, weights, o);
  for (Workload& w : pts) {
    w.jobs = o.jobs;
    if (dev.max_queue_depth && w.queue_depth > *dev.max_queue_depth) {
      w.queue_depth_requested = w.queue_depth;
      w.queue_depth = *dev.max_queue_depth;
    }
  }
  for (const Workload& w : pts) {
    // Keep sequential reads inside their region for the byte budget too.
    DP_RETURN_IF_ERROR(w.Validate(lbs));
  }
  return pts;
}

}  // namespace dp
