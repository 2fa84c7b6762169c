#include "bench/workload_runner.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "base/thread_annotations.h"
#include "bench/aligned_buffer.h"
#include "bench/unwritten_region.h"

namespace dp {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

// The first 64 completed reads and then every 8th have their data checked for
// all zeros: enough reads to judge even a short point (unwritten_region.h)
// at an eighth of the cost.
constexpr std::uint64_t kZeroCheckAll = 64;
constexpr std::uint64_t kZeroCheckEvery = 8;

// Byte and read-count budget of one point, shared by its jobs: each read is
// claimed before it is submitted, so jobs together never exceed it.
class SharedBudget {
 public:
  SharedBudget(std::uint64_t bytes, std::uint64_t ios)
      : initial_bytes_(bytes), initial_ios_(ios), bytes_(bytes), ios_(ios ? ios : UINT64_MAX) {}

  bool Claim(std::uint64_t bytes) {
    std::uint64_t b = bytes_.load(kRelaxed);
    do {
      if (b < bytes) return false;
    } while (!bytes_.compare_exchange_weak(b, b - bytes, kRelaxed));
    std::uint64_t n = ios_.load(kRelaxed);
    do {
      if (n == 0) {
        bytes_.fetch_add(bytes, kRelaxed);
        return false;
      }
    } while (!ios_.compare_exchange_weak(n, n - 1, kRelaxed));
    return true;
  }
  std::uint64_t claimed_bytes() const { return initial_bytes_ - bytes_.load(kRelaxed); }
  std::uint64_t claimed_ios() const {
    return initial_ios_ ? initial_ios_ - ios_.load(kRelaxed) : 0;
  }
  // Takes what another budget (a probe's) claimed off this one.
  void Consume(std::uint64_t bytes, std::uint64_t ios) {
    std::uint64_t b = bytes_.load(kRelaxed);
    while (!bytes_.compare_exchange_weak(b, b > bytes ? b - bytes : 0, kRelaxed)) {
    }
    std::uint64_t n = ios_.load(kRelaxed);
    while (!ios_.compare_exchange_weak(n, n > ios ? n - ios : 0, kRelaxed)) {
    }
  }
  // 0..1 of the budget claimed (the larger of bytes and reads).
  double UsedFraction() const {
    double f = 1.0 - static_cast<double>(bytes_.load(kRelaxed)) /
                         static_cast<double>(std::max<std::uint64_t>(1, initial_bytes_));
    if (initial_ios_)
      f = std::max(f, 1.0 - static_cast<double>(ios_.load(kRelaxed)) /
                                static_cast<double>(initial_ios_));
    return f;
  }

 private:
  const std::uint64_t initial_bytes_, initial_ios_;
  std::atomic<std::uint64_t> bytes_, ios_;
};


// What one job shares with the others of its point.
struct JobContext {
  const Clock& clock;
  std::size_t alignment;
  MonoTime t0;                     // the point's start: the time budget runs from here
  std::chrono::nanoseconds budget;
  std::chrono::nanoseconds warmup;
  std::uint64_t warmup_bytes;      // this job's share (0 = time only)
  SharedBudget& shared;
  const std::atomic<bool>* cancel;
  std::atomic<bool>& stop;         // a job hit a read error: all stop submitting
};

struct JobRun {
  WorkloadResult r;
  bool warm = false;
  MonoTime measure_start{}, last_done{};
  LatencyHistogram warmup_latency;
};

// After the engine itself failed: reads still in flight would go on writing
// into the buffers; try to collect them, and if that fails too, give the
// buffers up (a leak, never memory the heap reuses under the kernel).
void CollectOrAbandon(IoEngine& engine, std::vector<IoCompletion>& done,
                      std::vector<AlignedBuffer>& buffers) {
  for (int i = 0; i < 10 && engine.in_flight() > 0; ++i) {
    done.clear();
    (void)engine.Reap(engine.in_flight(), std::chrono::seconds(1), done);
  }
  if (engine.in_flight() > 0)
    for (AlignedBuffer& b : buffers) b.Release();
}

// The job's progress, the larger of its time and its bytes spent, reported
// in steps of at least 1%.
void ReportProgress(const ProgressFn& progress, MonoTime now, const JobContext& c,
                    double& last_progress) {
  const double f = std::min(1.0, std::max(std::chrono::duration<double>(now - c.t0) /
                                              std::chrono::duration<double>(c.budget),
                                          c.shared.UsedFraction()));
  if (f - last_progress >= 0.01) {
    progress(f);
    last_progress = f;
  }
}

// One job: keeps w.queue_depth reads of its own slice `w` in flight.
Result<JobRun> RunJob(IoEngine& engine, const Workload& w, const JobContext& c,
                      const ProgressFn& progress) {
  if (engine.queue_depth() < w.queue_depth)
    return Internal("engine queue depth " + std::to_string(engine.queue_depth()) +
                    " < workload's " + std::to_string(w.queue_depth));
  if (engine.in_flight() != 0) return Internal("engine has reads in flight");

  // One buffer per slot; a slot is free again when its read is reaped.
  std::vector<AlignedBuffer> buffers;
  std::vector<std::uint64_t> slot_offset(w.queue_depth);
  std::vector<std::uint32_t> free_slots;
  std::vector<std::byte*> addresses;
  for (std::uint32_t i = 0; i < w.queue_depth; ++i) {
    DP_ASSIGN_OR_RETURN(auto b, AlignedBuffer::Allocate(w.block_size, c.alignment));
    addresses.push_back(b.data());
    buffers.push_back(std::move(b));
    free_slots.push_back(w.queue_depth - 1 - i);
  }
  const bool registered = engine.RegisterBuffers(addresses, w.block_size);
  struct Unregister {
    IoEngine& engine;
    bool on;
    ~Unregister() {
      if (on) engine.RegisterBuffers({}, 0);
    }
  } unregister{engine, registered};

  OffsetSequence offsets(w);
  JobRun run;
  WorkloadResult& r = run.r;
  run.warm = c.warmup.count() <= 0 && c.warmup_bytes == 0;
  run.measure_start = run.last_done = c.t0;
  bool submitting = true;
  std::vector<IoCompletion> done;
  done.reserve(w.queue_depth);
  double last_progress = -1;
  std::uint64_t completed = 0;
  const bool check_data = engine.returns_data();

  for (;;) {
    while (submitting && !free_slots.empty()) {
      if (!c.shared.Claim(w.block_size)) {
        submitting = false;
        break;
      }
      std::uint32_t slot = free_slots.back();
      std::uint64_t off = offsets.Next();
      IoRequest req{off, w.block_size, buffers[slot].data(), slot};
      if (registered) req.buffer_index = static_cast<std::int32_t>(slot);
      Status s = engine.Submit(req);
      if (!s.ok()) {
        r.error = s;
        submitting = false;
        break;
      }
      free_slots.pop_back();
      slot_offset[slot] = off;
    }
    if (engine.in_flight() == 0) break;

    done.clear();
    auto reaped = engine.Reap(1, std::chrono::milliseconds(100), done);
    if (!reaped.ok()) {
      // The engine itself failed (CollectOrAbandon).
      r.error = reaped.status();
      r.partial = true;
      c.stop.store(true, kRelaxed);
      CollectOrAbandon(engine, done, buffers);
      break;
    }
    const MonoTime now = c.clock.Monotonic();
    for (const IoCompletion& d : done) {
      auto slot = static_cast<std::uint32_t>(d.tag);
      free_slots.push_back(slot);
      if (d.result != static_cast<std::int64_t>(w.block_size)) {
        if (r.error.ok()) {
          const std::string where = "read of " + std::to_string(w.block_size) + " bytes at " +
                                    std::to_string(slot_offset[slot]);
          r.error = d.result < 0 ? ErrnoStatus(static_cast<int>(-d.result), where)
                                 : IoError(where + " returned " + std::to_string(d.result) +
                                           " bytes (device shrank or went away)");
        }
        submitting = false;
        c.stop.store(true, kRelaxed);
        continue;
      }
      r.total_bytes += w.block_size;
      ++r.total_ios;
      run.last_done = now;
      if (check_data && (completed < kZeroCheckAll || completed % kZeroCheckEvery == 0)) {
        ++r.checked_reads;
        if (BufferAllZero(buffers[slot].data(), w.block_size)) ++r.zero_reads;
      }
      ++completed;
      const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(0, d.latency.count()));
      if (run.warm) {
        r.bytes += w.block_size;
        ++r.ios;
        r.latency.Record(ns);
      } else {
        run.warmup_latency.Record(ns);
      }
    }
    if (!run.warm &&
        (now - c.t0 >= c.warmup || (c.warmup_bytes && r.total_bytes >= c.warmup_bytes))) {
      run.warm = true;
      run.measure_start = now;
    }
    if (now - c.t0 >= c.budget) submitting = false;
    if (submitting && c.stop.load(kRelaxed)) submitting = false;
    if (c.cancel && c.cancel->load(kRelaxed) && submitting) {
      submitting = false;
      if (r.error.ok()) r.error = Cancelled("cancelled");
    }
    if (progress) ReportProgress(progress, now, c, last_progress);
  }
  return run;
}

// A job's own figures: the measured window, or the warm-up's when it never ended.
void Finish(JobRun& run) {
  WorkloadResult& r = run.r;
  if (run.warm) {
    r.seconds =
        std::max(0.0, std::chrono::duration<double>(run.last_done - run.measure_start).count());
  } else {
    r.bytes = r.total_bytes;
    r.ios = r.total_ios;
    r.latency = run.warmup_latency;
    r.seconds = std::max(0.0, std::chrono::duration<double>(run.last_done - run.measure_start).count());
  }
  if (!r.error.ok() || !run.warm || r.ios == 0) r.partial = true;
}

void StatePartial(WorkloadResult& r) {
  if (r.error.ok() && r.partial)
    r.error = ResourceExhausted(
        "the budget ran out before the warm-up ended "
        "(figures include the warm-up)");
}

// The jobs of a point as one result: counts add up, histograms merge, and the
// rate is the sum of the jobs' rates (they ran side by side).
WorkloadResult Merge(std::vector<JobRun>& runs) {
  WorkloadResult m;
  double rate = 0;  // bytes per second
  for (JobRun& run : runs) {
    const WorkloadResult& r = run.r;
    m.bytes += r.bytes;
    m.ios += r.ios;
    m.total_bytes += r.total_bytes;
    m.total_ios += r.total_ios;
    m.checked_reads += r.checked_reads;
    m.zero_reads += r.zero_reads;
    m.latency.Merge(r.latency);
    m.partial = m.partial || r.partial;
    if (m.error.ok() && !r.error.ok()) m.error = r.error;
    if (r.seconds > 0) rate += static_cast<double>(r.bytes) / r.seconds;
  }
  m.seconds = rate > 0 ? static_cast<double>(m.bytes) / rate : 0;
  m.jobs = static_cast<std::uint32_t>(runs.size());
  return m;
}

// Job `job` of `jobs`: sequential jobs read their own slice, random jobs use
// their own seed (job 0 keeps the workload's, so one job reads what it always did).
Workload JobSlice(const Workload& w, std::uint32_t job, std::uint32_t jobs) {
  Workload s = w;
  if (w.pattern == AccessPattern::kSequential && jobs > 1) {
    const std::uint64_t len = w.region_end - w.region_begin;
    const std::uint64_t slice = len / jobs - (len / jobs) % w.block_size;
    s.region_begin = w.region_begin + job * slice;
    s.region_end = job + 1 == jobs ? w.region_end : s.region_begin + slice;
  }
  if (w.pattern == AccessPattern::kRandom) s.seed = w.seed + job * 0x9e3779b97f4a7c15ULL;
  return s;
}

// How many jobs the pattern and region allow.
std::uint32_t ClampJobs(const Workload& w, std::uint32_t jobs) {
  if (w.pattern == AccessPattern::kStride || w.pattern == AccessPattern::kStroke) return 1;
  jobs = std::min(jobs, kMaxJobs);
  if (w.pattern == AccessPattern::kSequential) {
    const std::uint64_t per_job = static_cast<std::uint64_t>(w.block_size) * w.queue_depth;
    const std::uint64_t fit = (w.region_end - w.region_begin) / per_job;
    jobs = static_cast<std::uint32_t>(std::min<std::uint64_t>(jobs, std::max<std::uint64_t>(1, fit)));
  }
  return std::max<std::uint32_t>(1, jobs);
}

// Runs `jobs` jobs from now for `seconds`: job 0 on this thread, the others on
// threads of their own, each building its engine there.
Result<WorkloadResult> RunJobs(const EngineFactory& make_engine, const Workload& w,
                               std::uint32_t jobs, double seconds, double warmup_seconds,
                               std::uint64_t warmup_bytes, std::size_t alignment,
                               const Clock& clock, SharedBudget& shared,
                               const std::atomic<bool>* cancel, const ProgressFn& progress) {
  Mutex factory_mu;
  std::atomic<bool> stop{false};
  const JobContext ctx{clock,
                       alignment,
                       clock.Monotonic(),
                       std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::duration<double>(seconds)),
                       std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::duration<double>(warmup_seconds)),
                       warmup_bytes ? std::max<std::uint64_t>(w.block_size, warmup_bytes / jobs)
                                    : 0,
                       shared,
                       cancel,
                       stop};
  std::vector<Result<JobRun>> runs(jobs, Internal("job not run"));
  auto job = [&](std::uint32_t j) {
    Result<std::unique_ptr<IoEngine>> engine = Internal("no engine");
    {
      MutexLock lock(factory_mu);
      engine = make_engine(w.queue_depth);
    }
    if (!engine.ok()) {
      runs[j] = engine.status();
      stop.store(true, kRelaxed);
      return;
    }
    runs[j] = RunJob(**engine, JobSlice(w, j, jobs), ctx, j == 0 ? progress : nullptr);
    if (!runs[j].ok()) stop.store(true, kRelaxed);
  };
  std::vector<std::thread> threads;
  threads.reserve(jobs - 1);
  for (std::uint32_t j = 1; j < jobs; ++j) threads.emplace_back(job, j);
  job(0);
  for (auto& t : threads) t.join();

  std::vector<JobRun> ok;
  for (auto& r : runs) {
    if (!r.ok()) return r.status();
    ok.push_back(std::move(*r));
  }
  for (JobRun& run : ok) Finish(run);
  if (ok.size() == 1) {
    WorkloadResult r = std::move(ok[0].r);
    r.jobs = 1;
    return r;
  }
  return Merge(ok);
}

}  // namespace

Result<WorkloadResult> RunWorkload(IoEngine& engine, const Workload& w,
                                   std::uint32_t logical_block_size, std::size_t alignment,
                                   const Clock& clock, const std::atomic<bool>* cancel,
                                   const ProgressFn& progress) {
  DP_RETURN_IF_ERROR(w.Validate(logical_block_size));
  SharedBudget shared(w.max_bytes, w.max_ios);
  std::atomic<bool> stop{false};
  const JobContext ctx{clock,
                       alignment,
                       clock.Monotonic(),
                       std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::duration<double>(w.seconds)),
                       std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::duration<double>(w.warmup_seconds)),
                       w.warmup_bytes,
                       shared,
                       cancel,
                       stop};
  DP_ASSIGN_OR_RETURN(JobRun run, RunJob(engine, w, ctx, progress));
  Finish(run);
  StatePartial(run.r);
  return std::move(run.r);
}

Result<WorkloadResult> RunWorkloadJobs(const EngineFactory& make_engine, const Workload& w,
                                       std::uint32_t logical_block_size, std::size_t alignment,
                                       const Clock& clock, const std::atomic<bool>* cancel,
                                       const ProgressFn& progress) {
  DP_RETURN_IF_ERROR(w.Validate(logical_block_size));
  if (w.jobs > kMaxJobs)
    return InvalidArgument("jobs must be auto or 1.." + std::to_string(kMaxJobs) + ", not " +
                           std::to_string(w.jobs));
  SharedBudget shared(w.max_bytes, w.max_ios);
  std::uint32_t jobs = w.jobs;
  double seconds = w.seconds;
  std::uint64_t probe_bytes = 0, probe_ios = 0;
  if (jobs == 0) {
    // auto: double the jobs while the device gives >10% more IOPS for them.
    const std::uint32_t cpus = std::max(1u, std::thread::hardware_concurrency());
    const std::uint32_t most = ClampJobs(w, std::min(cpus, kMaxJobs));
    const double probe_seconds = std::max(0.05, w.seconds * 0.05);
    const MonoTime start = clock.Monotonic();
    jobs = 1;
    double best = 0;
    // Sequential probes each read their own part of the last eighth of the
    // region, so neither a later probe nor the measured jobs (each from the
    // start of its slice) read a block that a drive's cache would answer
    // (unless a large budget wraps them round).
    std::uint32_t probes = 1;
    while ((1u << probes) <= most) ++probes;
    std::uint64_t part = 0;
    if (w.pattern == AccessPattern::kSequential) {
      const std::uint64_t eighth = (w.region_end - w.region_begin) / 8 / probes;
      part = eighth - eighth % w.block_size;
    }
    for (std::uint32_t n = 1, k = 0; most > 1 && n <= most; n *= 2, ++k) {
      Workload probe_w = w;
      if (part) {
        probe_w.region_end = w.region_end - k * part;
        probe_w.region_begin = probe_w.region_end - part;
      }
      if (ClampJobs(probe_w, n) != n) break;
      // Each probe may use a twentieth of the byte (and count) budget.
      SharedBudget probe(std::max<std::uint64_t>(w.block_size, w.max_bytes / 20),
                         w.max_ios ? std::max<std::uint64_t>(1, w.max_ios / 20) : 0);
      DP_ASSIGN_OR_RETURN(WorkloadResult p,
                          RunJobs(make_engine, probe_w, n, probe_seconds, 0, 0,
                                  alignment, clock, probe, cancel, nullptr));
      shared.Consume(probe.claimed_bytes(), probe.claimed_ios());
      probe_bytes += p.total_bytes;
      probe_ios += p.total_ios;
      if (!p.error.ok() && p.error.code() != StatusCode::kResourceExhausted) {
        // A read error or a cancel in the probe ends the point like any other.
        p.total_bytes = probe_bytes;
        p.total_ios = probe_ios;
        StatePartial(p);
        return p;
      }
      if (p.iops() <= best * 1.10) break;
      best = p.iops();
      jobs = n;
    }
    const double spent = std::chrono::duration<double>(clock.Monotonic() - start).count();
    seconds = std::max(w.seconds * 0.1, w.seconds - spent);
  }
  jobs = ClampJobs(w, jobs);
  const std::uint64_t buffer_bytes =
      static_cast<std::uint64_t>(jobs) * w.queue_depth * w.block_size;
  if (buffer_bytes > (1ULL << 30))
    return InvalidArgument("jobs x queue depth x block size = " + std::to_string(buffer_bytes) +
                           " bytes of buffers, more than 1 GiB");
  DP_ASSIGN_OR_RETURN(WorkloadResult r,
                      RunJobs(make_engine, w, jobs, seconds, std::min(w.warmup_seconds, seconds / 2),
                              w.warmup_bytes, alignment, clock, shared, cancel, progress));
  r.total_bytes += probe_bytes;
  r.total_ios += probe_ios;
  r.jobs = jobs;
  StatePartial(r);
  return r;
}

}  // namespace dp
