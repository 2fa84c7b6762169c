// `diskpulse bench TARGET... --test T [...]`: runs read-only drive tests (or
// pool-write on a directory) now, in this process, and prints the figures as
// `diskinfo -tv`-like text or the stable JSON of BenchReport. SIGINT/SIGTERM cancel the
// run: the partial figures are printed flagged as partial and a pool-write
// scratch file is removed. Exit: 0 whole, 1 partial/failed, 2 bad input,
// 130 interrupted.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "base/clock.h"
#include "bench/bench_report_format.h"
#include "bench/bench_runner.h"
#include "cli/commands.h"
#include "config/config.h"

namespace dp::cli {
namespace {

// Set by the signal handler; the run polls it.
std::atomic<bool> g_cancel{false};

extern "C" void OnSignal(int) { g_cancel.store(true); }

constexpr const char* kUsage =
    "usage: diskpulse bench TARGET... --test TEST[,TEST...] [options]\n"
    "\n"
    "Read-only drive tests (targets: devices or files), or pool-write (targets: directories).\n"
    "  --test T          seq | zones | seek | random | sweep | pool-write | parallel | all\n"
    "                    (all = every read test that applies; repeat or comma-separate)\n"
    "  --seconds S       time budget per test per target (default 10)\n"
    "  --max-bytes N     byte budget per test per target (default 8G; K/M/G/T = 1024^n)\n"
    "  --qd N            queue depth (default: per test; seq/zones 8, random 1 and 32)\n"
    "  --bs SIZE         block size (default: per test; seq/zones 1M, random/seek 4K)\n"
    "  --engine E        auto | pread | uring (default auto)\n"
    "  --jobs N          threads reading each target at once, 1..64 or auto (default 1;\n"
    "                    one result per point, like fio --numjobs --group_reporting)\n"
    "  --zone-points N   zones: also an N-point transfer sweep across the surface\n"
    "  --min-free-percent P  pool-write: keep at least P% free (default 10)\n"
    "  --config FILE     take defaults from the config's bench section\n"
    "  --json            print JSON (one object per target; an array for several)\n";

int UsageError(const std::string& msg) {
  std::fprintf(stderr, "diskpulse bench: %s\n(try 'diskpulse bench --help')\n", msg.c_str());
  return 2;
}

// "4096", "4K", "1M", "1G", "1GiB" (binary), "1GB" (decimal).
bool ParseSize(const std::string& s, std::uint64_t& out) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (errno || end == s.c_str()) return false;
  std::string unit = end;
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double mult = 1;
  if (unit.empty() || unit == "B")
    mult = 1;
  else if (unit == "K" || unit == "KIB")
    mult = 1024.0;
  else if (unit == "M" || unit == "MIB")
    mult = 1024.0 * 1024;
  else if (unit == "G" || unit == "GIB")
    mult = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "TIB")
    mult = 1024.0 * 1024 * 1024 * 1024;
  else if (unit == "KB")
    mult = 1e3;
  else if (unit == "MB")
    mult = 1e6;
  else if (unit == "GB")
    mult = 1e9;
  else if (unit == "TB")
    mult = 1e12;
  else
    return false;
  double bytes = v * mult;
  if (!(bytes >= 0) || bytes > 1.8e19 || std::floor(bytes) != bytes) return false;
  out = static_cast<std::uint64_t>(bytes);
  return true;
}

bool ParseUint(const std::string& s, std::uint64_t& out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18)
    return false;
  out = std::stoull(s);
  return true;
}

bool ParseDouble(const std::string& s, double& out) {
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && errno == 0 && end && *end == '\0' && std::isfinite(out);
}

void InstallSignalHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked wait returns and sees the flag
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// A progress line on the terminal: the whole percent, rewritten in place
// when it changes; last_pct keeps the one shown (-1: none yet).
ProgressFn PercentOnStderr(int& last_pct) {
  return [&last_pct](double f) {
    int pct = static_cast<int>(f * 100);
    if (pct != last_pct) {
      last_pct = pct;
      std::fprintf(stderr, "\r  %3d%%", pct);
      std::fflush(stderr);
    }
  };
}

// The tests --test names, "all" standing for every read test that suits
// this many targets.
Result<std::vector<BenchTest>> TestsNamed(const std::vector<std::string>& names,
                                          std::size_t targets) {
  std::vector<BenchTest> tests;
  bool all = false;
  for (const std::string& name : names) {
    if (name == "all") {
      all = true;
      continue;
    }
    auto t = ParseBenchTest(name);
    if (!t.ok()) return InvalidArgument("--test: " + t.status().message());
    tests.push_back(*t);
  }
  if (all) {
    for (BenchTest t : AllReadTests(targets))
      if (std::find(tests.begin(), tests.end(), t) == tests.end()) tests.push_back(t);
  }
  return tests;
}

// The reports as text or JSON; a partial one is named on stderr. Exit status:
// 130 cancelled, 1 when any report is partial, else 0.
int PrintReports(const std::vector<BenchReport>& reports, bool json) {
  bool partial = false;
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const BenchReport& r : reports) out.push_back(BenchReportToJson(r));
    std::string text = reports.size() == 1 ? out[0].dump(2) : out.dump(2);
    std::printf("%s\n", text.c_str());
  } else {
    bool first = true;
    for (const BenchReport& r : reports) {
      if (!first) std::fputs("\n", stdout);
      first = false;
      std::fputs(FormatBenchReport(r).c_str(), stdout);
    }
  }
  for (const BenchReport& r : reports) {
    if (r.partial) {
      partial = true;
      std::fprintf(stderr, "diskpulse bench: %s: partial: %s\n", r.target.c_str(),
                   r.error.empty() ? "ended early" : r.error.c_str());
    }
  }
  std::fflush(stdout);
  if (g_cancel.load()) return 130;
  return partial ? 1 : 0;
}

}  // namespace

int RunBenchCommand(const Args& args) {
  BenchRequest req;
  BenchOptions& o = req.options;
  bool json = false, tests_given = false;
  bool seconds_set = false, bytes_set = false, engine_set = false, free_set = false;
  bool jobs_set = false;
  std::string config_path;
  std::vector<std::string> test_names;

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    std::string v;
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--test") {
      if (!value(v)) return UsageError("--test needs a value");
      std::size_t start = 0;
      while (start <= v.size()) {
        auto comma = v.find(',', start);
        test_names.push_back(v.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      tests_given = true;
    } else if (a == "--seconds") {
      if (!value(v) || !ParseDouble(v, o.seconds) || o.seconds <= 0)
        return UsageError("--seconds needs a number of seconds > 0");
      seconds_set = true;
    } else if (a == "--max-bytes") {
      if (!value(v) || !ParseSize(v, o.max_bytes))
        return UsageError("--max-bytes needs a size (e.g. 512M, 8G)");
      bytes_set = true;
    } else if (a == "--qd") {
      std::uint64_t n = 0;
      if (!value(v) || !ParseUint(v, n) || n < 1 || n > 256)
        return UsageError("--qd needs a queue depth from 1 to 256");
      o.queue_depth = static_cast<std::uint32_t>(n);
    } else if (a == "--bs") {
      std::uint64_t n = 0;
      if (!value(v) || !ParseSize(v, n) || n < 512 || n > (64u << 20))
        return UsageError("--bs needs a block size from 512 to 64M (e.g. 4K, 1M)");
      o.block_size = static_cast<std::uint32_t>(n);
    } else if (a == "--engine") {
      if (!value(v)) return UsageError("--engine needs auto, pread or uring");
      auto e = ParseEngineKind(v);
      if (!e.ok()) return UsageError("--engine: " + e.status().message());
      o.engine = *e;
      engine_set = true;
    } else if (a == "--jobs") {
      if (!value(v)) return UsageError("--jobs needs auto or a number from 1 to 64");
      auto j = ParseJobs(v);
      if (!j.ok()) return UsageError(j.status().message());
      o.jobs = *j;
      jobs_set = true;
    } else if (a == "--zone-points") {
      std::uint64_t n = 0;
      if (!value(v) || !ParseUint(v, n) || n < 2 || n > 64)
        return UsageError("--zone-points needs a number from 2 to 64");
      o.zone_sweep_points = static_cast<int>(n);
    } else if (a == "--min-free-percent") {
      if (!value(v) || !ParseDouble(v, o.min_free_percent) || o.min_free_percent < 0 ||
          o.min_free_percent >= 100)
        return UsageError("--min-free-percent needs a number from 0 to 99");
      free_set = true;
    } else if (a == "--config") {
      if (!value(v)) return UsageError("--config needs a file");
      config_path = v;
    } else if (!a.empty() && a[0] == '-') {
      return UsageError("unknown option '" + a + "'");
    } else {
      req.targets.push_back(a);
    }
  }
  if (req.targets.empty()) return UsageError("no TARGET given");
  if (!tests_given) return UsageError("--test is required (e.g. --test seq, --test all)");

  if (!config_path.empty()) {
    auto cfg = LoadConfigFile(config_path);
    if (!cfg.ok()) return UsageError(cfg.status().message());
    BenchOptions d = BenchOptionsFromConfig(cfg->bench);
    if (!seconds_set) o.seconds = d.seconds;
    if (!bytes_set) o.max_bytes = d.max_bytes;
    if (!engine_set) o.engine = d.engine;
    if (!free_set) o.min_free_percent = d.min_free_percent;
    if (!jobs_set) o.jobs = d.jobs;
    o.busy_threshold = d.busy_threshold;
  }
  auto tests = TestsNamed(test_names, req.targets.size());
  if (!tests.ok()) return UsageError(tests.status().message());
  o.tests = std::move(tests).value();
  if (Status s = o.Validate(); !s.ok()) return UsageError(s.message());

  InstallSignalHandlers();
  SystemClock clock;
  PosixDeviceOpener opener;
  const bool show_progress = !json && ::isatty(STDERR_FILENO);
  int last_pct = -1;
  const ProgressFn progress = show_progress ? PercentOnStderr(last_pct) : ProgressFn();
  auto reports = RunBench(req, {&clock, &opener}, &g_cancel, progress);
  if (show_progress && last_pct >= 0) std::fputs("\r       \r", stderr);
  if (!reports.ok()) {
    std::fprintf(stderr, "diskpulse bench: %s\n", reports.status().ToString().c_str());
    return g_cancel.load() ? 130 : 2;
  }

  return PrintReports(*reports, json);
}

}  // namespace dp::cli
