// judge_cost: the CPU one judgement costs, on a fresh thread and on a warm
// one. The daemon judges each finished job on a thread of its own
// (runs/run_evaluator.h calls detect::JudgeRun there), so what a fresh thread
// pays is what every run pays.
//
// One drive with `--years` (3) of weekly runs of every judged test of the
// default weekly run (zones, seek, random, seq: the field model's 13 series,
// benchmarks/detect_field.cc) in a detect::MemorySeriesHistory; the newest run
// of each test is judged by detect::JudgeRun, the daemon's own judge:
//   - once on a fresh thread before anything else in the process (cold);
//   - `--rounds` (5) times per test, each on a fresh std::thread;
//   - `--rounds` times per test on one thread that judged them all once first
//     (that first judgement is given too: what a test's first run in the
//     process pays).
// CPU time is the judging thread's own (CLOCK_THREAD_CPUTIME_ID), so the
// machine's other load does not enter it.
//
// Usage: judge_cost [--years N] [--rounds N] [--seed N]
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "detect/judge.h"
#include "detect/memory_series_history.h"

namespace {

using dp::BenchPoint;
using dp::LatencySummary;
namespace detect = dp::detect;

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;
const char* const kTests[] = {"zones", "seek", "random", "seq"};

// One run's points of `test` at plausible HDD levels, each figure with 3%
// log-normal noise.
std::vector<BenchPoint> Points(const std::string& test, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0, 1);
  auto noisy = [&](double v) { return v * std::exp(0.03 * normal(rng)); };
  std::vector<BenchPoint> out;
  BenchPoint p;
  p.test = test;
  if (test == "zones") {
    p.block_size = 1 << 20;
    p.queue_depth = 1;
    for (auto [zone, mb] : {std::pair<const char*, double>{"outer", 250}, {"middle", 200}, {"inner", 120}}) {
      p.zone = zone;
      p.mb_per_s = noisy(mb);
      out.push_back(p);
    }
  } else if (test == "seek") {
    p.block_size = 4096;
    p.queue_depth = 1;
    for (auto [stroke, ms] : {std::pair<const char*, double>{"full", 18},
                              {"half", 13},
                              {"quarter", 10},
                              {"short-forward", 4},
                              {"short-backward", 5}}) {
      p.stroke = stroke;
      p.access_ms = noisy(ms);
      out.push_back(p);
    }
  } else if (test == "random") {
    p.block_size = 4096;
    for (auto [qd, iops, p99] : {std::tuple<int, double, double>{1, 80, 25000}, {32, 200, 300000}}) {
      p.queue_depth = qd;
      p.iops = noisy(iops);
      p.latency = LatencySummary{.p99_us = noisy(p99)};
      out.push_back(p);
    }
  } else {
    p.block_size = 1 << 20;
    p.queue_depth = 8;
    p.mb_per_s = noisy(200);
    out.push_back(p);
  }
  return out;
}

double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Judges `run` and returns the thread's CPU milliseconds for it; exits on a
// failed judgement (the figure would mean nothing).
double Judge(const detect::RunToJudge& run, detect::MemorySeriesHistory& history,
             const dp::DetectionConfig& cfg) {
  const double t0 = ThreadCpuMs();
  auto verdicts = detect::JudgeRun(run, history, cfg);
  const double ms = ThreadCpuMs() - t0;
  if (!verdicts.ok()) {
    std::fprintf(stderr, "JudgeRun failed: %s\n", verdicts.status().ToString().c_str());
    std::exit(1);
  }
  return ms;
}

double OnFreshThread(const detect::RunToJudge& run, detect::MemorySeriesHistory& history,
                     const dp::DetectionConfig& cfg) {
  double ms = 0;
  std::thread t([&] { ms = Judge(run, history, cfg); });
  t.join();
  return ms;
}

struct Stats {
  double median = 0, max = 0;
};
Stats Of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.back()};
}

}  // namespace

int main(int argc, char** argv) {
  int years = 3, rounds = 5;
  std::uint64_t seed = 7;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--years") && i + 1 < argc)
      years = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: judge_cost [--years N] [--rounds N] [--seed N]\n");
      return 2;
    }
  }
  const dp::DetectionConfig cfg;
  const detect::DriveRef drive{"wwn-judge-cost", "sda", "HDD-8T"};
  detect::MemorySeriesHistory history;
  history.AddDrive(drive);
  std::mt19937_64 rng(seed);
  std::vector<detect::RunToJudge> newest;  // the newest run of each test
  const int weeks = 52 * years;
  for (int w = 0; w < weeks; ++w) {
    int n = 0;
    for (const char* test : kTests) {
      detect::RunToJudge run;
      run.id = history.NewRunId();
      run.test = test;
      run.started_at = kT0 + w * kWeek + 1800 * n++;
      run.drive = drive;
      run.points = Points(test, rng);
      history.AddRun(drive.id, {run.id, test, run.started_at, false, false, {}}, run.points);
      if (w == weeks - 1) newest.push_back(run);
    }
  }

  std::printf("judge_cost: one drive, %d weeks of the 4 weekly tests (13 series), %d rounds\n",
              weeks, rounds);
  const double cold = OnFreshThread(newest.front(), history, cfg);
  std::printf("first judgement in the process (%s, fresh thread): %.1f ms CPU\n",
              newest.front().test.c_str(), cold);
  std::printf(
      "| test | fresh thread: median / max ms CPU | warm thread: median / max ms CPU | its first "
      "on the warm thread |\n");
  std::printf("|---|---|---|---|\n");
  std::vector<double> all_fresh, all_warm;
  // The warm thread judges every test once before it is timed.
  std::vector<std::vector<double>> warm(newest.size());
  std::vector<double> first_warm;
  std::thread warm_thread([&] {
    for (const auto& run : newest) first_warm.push_back(Judge(run, history, cfg));
    for (int r = 0; r < rounds; ++r)
      for (std::size_t k = 0; k < newest.size(); ++k) warm[k].push_back(Judge(newest[k], history, cfg));
  });
  warm_thread.join();
  for (std::size_t k = 0; k < newest.size(); ++k) {
    std::vector<double> fresh;
    for (int r = 0; r < rounds; ++r) fresh.push_back(OnFreshThread(newest[k], history, cfg));
    const Stats f = Of(fresh), h = Of(warm[k]);
    std::printf("| %s | %.2f / %.2f | %.2f / %.2f | %.1f |\n", newest[k].test.c_str(), f.median,
                f.max, h.median, h.max, first_warm[k]);
    all_fresh.insert(all_fresh.end(), fresh.begin(), fresh.end());
    all_warm.insert(all_warm.end(), warm[k].begin(), warm[k].end());
  }
  const Stats f = Of(all_fresh), h = Of(all_warm);
  std::printf("| all | %.2f / %.2f | %.2f / %.2f | |\n", f.median, f.max, h.median, h.max);
  return 0;
}
