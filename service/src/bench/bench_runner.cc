#include "bench/bench_runner.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <thread>

#include "bench/bench_plan.h"
#include "bench/own_io_meter.h"
#include "bench/pool_write.h"
#include "bench/unwritten_region.h"

namespace dp {
namespace {

bool Cancelled(const std::atomic<bool>* cancel) {
  return cancel && cancel->load(std::memory_order_relaxed);
}

// Maps overall progress: `done` of `total` budget-seconds finished, a
// fraction of the current item's `weight` under way.
class ProgressTracker {
 public:
  ProgressTracker(const ProgressFn& fn, double total) : fn_(fn), total_(std::max(total, 1e-9)) {}
  ProgressFn Item(double weight) {
    if (!fn_) return nullptr;
    double base = done_;
    done_ += weight;
    return [this, base, weight](double f) { fn_(std::min(1.0, (base + f * weight) / total_)); };
  }
  void Finish() {
    if (fn_) fn_(1.0);
  }

 private:
  const ProgressFn& fn_;
  double total_;
  double done_ = 0;
};

BenchPoint ToPoint(const Workload& w, const WorkloadResult& r) {
  BenchPoint p;
  p.test = w.test;
  p.block_size = w.block_size;
  p.queue_depth = w.queue_depth;
  p.zone = w.zone;
  p.stroke = w.stroke;
  p.variant = w.variant;
  if (w.test == "seq") p.region_offset = w.region_begin;
  p.bytes = r.bytes;
  p.seconds = r.seconds;
  p.mb_per_s = r.mb_per_s();
  p.iops = r.iops();
  if (r.latency.count()) {
    p.latency = r.latency.Summary();
    p.histogram = r.latency.Encode();
    if (w.test == "seek") p.access_ms = r.latency.mean_ns() / 1e6;
  }
  p.partial = r.partial;
  return p;
}

// One measured point on one target, watched by the contention guard.
struct PointOutcome {
  BenchPoint point;
  Status error;  // the run must stop (read error, cancel); OK otherwise
};

// The guard's window is the whole point, warm-up included, and what it
// subtracts is everything the point read in that window, counted by the
// OwnIoMeter the way the kernel counts it.
Result<PointOutcome> MeasurePoint(BenchTarget& target, const Workload& planned,
                                  const BenchOptions& o, const std::atomic<bool>* cancel,
                                  const ProgressFn& progress) {
  Workload w = planned;
  std::optional<DeviceCounters> before = target.ReadCounters();
  // One meter per engine: every job of the point (--jobs), and every job of
  // the probes that pick the count (--jobs auto), reads through its own, and
  // the guard subtracts them all. RunWorkloadJobs calls the factory one call
  // at a time and joins the jobs before it returns.
  std::vector<std::shared_ptr<const OwnIo>> meters;
  // Deferred completions (uring_engine.h) only where the meter's count cannot
  // depend on how reads are batched; with no counters there is no meter.
  const bool defer = !before || AlwaysOneRequest(w.block_size, *before);
  const EngineFactory make_engine =
      [&](std::uint32_t queue_depth) -> Result<std::unique_ptr<IoEngine>> {
    DP_ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> engine, target.MakeEngine(queue_depth, defer));
    if (!before) return engine;
    auto meter = std::make_unique<OwnIoMeter>(
        std::move(engine), [&target] { return target.ReadCounters(); }, *before);
    meters.push_back(meter->shared_own());
    return std::unique_ptr<IoEngine>(std::move(meter));
  };
  // seq on flash starts where the device holds data (WrittenSeqStart). The
  // probe reads are ours and inside the guard's window, through a meter.
  if (w.test == "seq" && w.pattern == AccessPattern::kSequential &&
      !target.info().rotational.value_or(false)) {
    DP_ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> probe, make_engine(1));
    DP_ASSIGN_OR_RETURN(std::uint64_t start, WrittenSeqStart(*probe, target.info(),
                                                             target.buffer_alignment(),
                                                             w.block_size));
    const std::uint64_t need = static_cast<std::uint64_t>(w.block_size) * w.queue_depth;
    if (start > w.region_begin && start + need <= w.region_end) w.region_begin = start;
  }
  DP_ASSIGN_OR_RETURN(WorkloadResult r,
                      RunWorkloadJobs(make_engine, w, target.info().logical_block_size,
                                      target.buffer_alignment(), target.clock(), cancel, progress));
  std::optional<DeviceCounters> after = target.ReadCounters();
  PointOutcome out{ToPoint(w, r), r.error};
  AnnotatePoint(w, r, target.info(), out.point);
  if (before && after) {
    OwnIo own;
    for (const auto& m : meters) {
      own.reads += m->reads;
      own.bytes += m->bytes;
      own.requests += m->requests;
    }
    ForeignIo f = EstimateForeignIo(*before, *after, own);
    out.point.foreign_share = f.share;
    out.point.contended = f.Contends(o.busy_threshold);
    out.point.own_bytes = own.bytes;
    out.point.own_requests = own.requests;
    out.point.device_bytes = f.device_bytes;
    out.point.device_requests = f.device_ios;
  }
  // A budget that ran out in the warm-up is partial but not a reason to stop.
  if (out.error.code() == StatusCode::kResourceExhausted) out.error = Status::Ok();
  return out;
}

// Watches the device before the first point. No I/O of ours runs, so any is
// foreign; busy above the threshold makes the whole run contended.
void IdleCheck(BenchTarget& target, const BenchOptions& o, BenchReport& report) {
  if (o.idle_check_seconds <= 0) return;
  auto before = target.ReadCounters();
  if (!before) return;
  const MonoTime t0 = target.clock().Monotonic();
  target.clock().SleepFor(std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(o.idle_check_seconds)));
  auto after = target.ReadCounters();
  if (!after) return;
  // The window as slept, which a loaded machine stretches.
  const double seconds = std::max(
      o.idle_check_seconds, std::chrono::duration<double>(target.clock().Monotonic() - t0).count());
  ForeignIo f = EstimateForeignIo(*before, *after, {});
  report.foreign_iops_before = static_cast<double>(f.ios) / seconds;
  report.busy_before = BusyShare(*before, *after, seconds);
  report.contended_before = *report.busy_before > o.busy_threshold;
}

double TestWeight(BenchTest t, const BenchOptions& o) {
  (void)t;
  return o.seconds;
}

std::vector<BenchTest> ReadTestsOf(const BenchOptions& o) {
  std::vector<BenchTest> v;
  for (BenchTest t : o.tests)
    if (IsReadTest(t) && t != BenchTest::kParallel) v.push_back(t);
  return v;
}

bool Has(const BenchOptions& o, BenchTest t) {
  return std::find(o.tests.begin(), o.tests.end(), t) != o.tests.end();
}

}  // namespace

Result<BenchReport> RunReadTests(BenchTarget& target, const BenchOptions& options,
                                 const std::atomic<bool>* cancel, const ProgressFn& progress) {
  DP_RETURN_IF_ERROR(options.Validate());
  std::vector<std::vector<Workload>> plans;
  double total = 0;
  for (BenchTest t : ReadTestsOf(options)) {
    DP_ASSIGN_OR_RETURN(auto plan, PlanReadTest(t, target.info(), options));
    plans.push_back(std::move(plan));
    total += TestWeight(t, options);
  }
  BenchReport report;
  report.target = target.name();
  report.device = target.info();
  report.engine = target.engine_name();
  IdleCheck(target, options, report);
  ProgressTracker tracker(progress, total);
  for (const auto& plan : plans) {
    for (const Workload& w : plan) {
      ProgressFn item = tracker.Item(w.seconds);
      if (Cancelled(cancel)) {
        report.partial = true;
        report.error = "cancelled";
        return report;
      }
      DP_ASSIGN_OR_RETURN(PointOutcome out, MeasurePoint(target, w, options, cancel, item));
      report.engine = target.engine_name();
      report.results.push_back(std::move(out.point));
      if (report.results.back().partial) report.partial = true;
      if (!out.error.ok()) {
        report.partial = true;
        report.error = out.error.code() == StatusCode::kCancelled
                           ? "cancelled"
                           : target.name() + ": " + out.error.ToString();
        return report;
      }
    }
  }
  tracker.Finish();
  return report;
}

Status RunParallel(const std::vector<BenchTarget*>& targets, const BenchOptions& options,
                   const std::vector<BenchReport*>& reports, const std::atomic<bool>* cancel,
                   const ProgressFn& progress) {
  if (targets.size() < 2) return InvalidArgument("parallel needs two or more targets");
  if (reports.size() != targets.size()) return Internal("parallel: one report per target");
  // Half the budget for the targets one at a time, half for all together.
  BenchOptions half = options;
  half.seconds = options.seconds / 2;
  half.max_bytes = options.max_bytes / 2;
  std::vector<Workload> plan;
  for (BenchTarget* t : targets) {
    DP_ASSIGN_OR_RETURN(auto p, PlanReadTest(BenchTest::kParallel, t->info(), half));
    plan.push_back(p.front());
  }
  ProgressTracker tracker(progress, options.seconds * static_cast<double>(targets.size() + 1));
  auto stop = [&](std::size_t i, const Status& s) {
    for (BenchReport* r : reports) {
      r->partial = true;
      if (r->error.empty())
        r->error = s.code() == StatusCode::kCancelled ? "cancelled"
                                                      : targets[i]->name() + ": " + s.ToString();
    }
  };
  for (std::size_t i = 0; i < targets.size(); ++i) {
    Workload w = plan[i];
    w.variant = "alone";
    ProgressFn item = tracker.Item(half.seconds);
    DP_ASSIGN_OR_RETURN(PointOutcome out, MeasurePoint(*targets[i], w, options, cancel, item));
    reports[i]->results.push_back(out.point);
    if (!out.error.ok()) {
      stop(i, out.error);
      return Status::Ok();
    }
  }

  std::vector<Result<PointOutcome>> together(targets.size(), Internal("not run"));
  {
    std::vector<std::thread> threads;
    ProgressFn item = tracker.Item(half.seconds * static_cast<double>(targets.size()));
    for (std::size_t i = 0; i < targets.size(); ++i) {
      threads.emplace_back([&, i] {
        Workload w = plan[i];
        w.variant = "together";
        together[i] = MeasurePoint(*targets[i], w, options, cancel, i == 0 ? item : nullptr);
      });
    }
    for (auto& t : threads) t.join();
  }
  BenchPoint sum;
  sum.test = "parallel";
  sum.variant = "sum";
  sum.block_size = plan[0].block_size;
  sum.queue_depth = plan[0].queue_depth;
  Status first_error;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!together[i].ok()) return together[i].status();
    const BenchPoint& p = together[i]->point;
    reports[i]->results.push_back(p);
    sum.bytes += p.bytes;
    sum.mb_per_s += p.mb_per_s;
    sum.iops += p.iops;
    sum.seconds = std::max(sum.seconds, p.seconds);
    sum.contended = sum.contended || p.contended;
    sum.foreign_share = std::max(sum.foreign_share, p.foreign_share);
    sum.partial = sum.partial || p.partial;
    if (first_error.ok() && !together[i]->error.ok()) {
      first_error = together[i]->error;
      stop(i, first_error);
    }
  }
  for (BenchReport* r : reports) {
    r->results.push_back(sum);
    if (sum.partial) r->partial = true;
  }
  tracker.Finish();
  return Status::Ok();
}

Result<std::vector<BenchReport>> RunBench(const BenchRequest& request, const BenchEnvironment& env,
                                          const std::atomic<bool>* cancel,
                                          const ProgressFn& progress) {
  if (!env.clock || !env.opener) return Internal("RunBench: environment incomplete");
  const BenchOptions& o = request.options;
  DP_RETURN_IF_ERROR(o.Validate());
  if (request.targets.empty()) return InvalidArgument("no target given");
  const bool pool_write = Has(o, BenchTest::kPoolWrite);
  const bool reads = !ReadTestsOf(o).empty() || Has(o, BenchTest::kParallel);
  if (Has(o, BenchTest::kParallel) && request.targets.size() < 2)
    return InvalidArgument("parallel needs two or more targets");

  // Everything that can be checked is checked before any I/O.
  PoolWriteOptions pw;
  pw.seconds = o.seconds;
  pw.max_bytes =
      std::max<std::uint64_t>(pw.block_size, std::min(o.max_bytes, o.pool_write_max_bytes));
  pw.min_free_percent = o.min_free_percent;
  pw.seed = o.seed;
  std::vector<std::unique_ptr<DeviceTarget>> targets;
  for (const std::string& path : request.targets) {
    if (pool_write) {
      if (reads)
        return InvalidArgument(
            "pool-write takes directories and the read tests take devices: "
            "run them separately");
      DP_RETURN_IF_ERROR(CheckPoolWriteTarget(path, pw.max_bytes + pw.sync_block_size * 256ULL,
                                              pw.min_free_percent));
      continue;
    }
    DP_ASSIGN_OR_RETURN(auto dev, env.opener->OpenReadOnly(path));
    auto target = std::make_unique<DeviceTarget>(std::move(dev), o.engine, *env.clock);
    if (o.engine == EngineKind::kUring && !UringCompiledIn())
      return Unsupported("--engine uring: this build has no io_uring engine");
    for (BenchTest t : o.tests) {
      if (t == BenchTest::kPoolWrite) continue;
      auto plan = PlanReadTest(t, target->info(), o);
      if (!plan.ok()) return plan.status().WithContext(path);
    }
    targets.push_back(std::move(target));
  }

  std::vector<BenchReport> reports;
  const double per_target = o.seconds * static_cast<double>(o.tests.size());
  ProgressTracker tracker(progress, per_target * static_cast<double>(request.targets.size()) +
                                        (Has(o, BenchTest::kParallel) ? o.seconds : 0));
  if (pool_write) {
    for (const std::string& dir : request.targets) {
      DP_ASSIGN_OR_RETURN(BenchReport r,
                          RunPoolWrite(dir, pw, *env.clock, cancel, tracker.Item(per_target)));
      reports.push_back(std::move(r));
      if (reports.back().partial) break;
    }
    tracker.Finish();
    return reports;
  }
  bool stopped = false;
  for (auto& t : targets) {
    ProgressFn item = tracker.Item(per_target);
    if (stopped) {
      BenchReport r;
      r.target = t->name();
      r.device = t->info();
      r.engine = t->engine_name();
      r.partial = true;
      r.error = "not run: the run stopped early";
      reports.push_back(std::move(r));
      continue;
    }
    DP_ASSIGN_OR_RETURN(BenchReport r, RunReadTests(*t, o, cancel, item));
    // A failing drive does not keep the others from being measured; a cancel does.
    stopped = Cancelled(cancel);
    reports.push_back(std::move(r));
  }
  if (Has(o, BenchTest::kParallel) && !stopped && !Cancelled(cancel)) {
    std::vector<BenchTarget*> ts;
    std::vector<BenchReport*> rs;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      ts.push_back(targets[i].get());
      rs.push_back(&reports[i]);
    }
    DP_RETURN_IF_ERROR(RunParallel(ts, o, rs, cancel, tracker.Item(o.seconds)));
  }
  tracker.Finish();
  return reports;
}

}  // namespace dp
