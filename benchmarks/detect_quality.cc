// detect_quality: measures how well diskpulse's detectors tell a degrading
// drive from a healthy one, and compares them
// with the naive rule "one run 20% below (latency: above) the mean of the
// last 5 runs" on the very same series. Not a test: it prints a table.
//
// Scenarios (each drive is tested on a schedule, weekly by default; a
// "needs confirmation" verdict triggers a re-test one hour later, which
// counts as a run):
//   healthy      N drives x 500 scheduled runs, 3% run-to-run noise:
//                alerts opened = false alerts (goal: 0);
//   drop15       throughput falls 15% for good at a random run after the
//                baseline: runs from the first slow run to the alert
//                (goal: <= 2, the confirmation re-test counts);
//   p99x1.5      p99 latency rises 1.5x the same way;
//   peer20       six drives of one vdev, one 20% slower from the start:
//                windows until the slow one is flagged, and false flags of
//                the five healthy siblings over 500 windows.
// Two sources of series: synthetic (Gaussian 3% noise around a constant) and
// the bench module's SimulatedEngine (a modelled 7200 rpm disk; 3% noise is
// put on the drive's transfer scale and mechanics per run, and the figures
// are what RunWorkload measures: MB/s of 1 MiB sequential reads in the outer
// zone, p99 of 4 KiB random reads at QD1).
//
// Usage: detect_quality [--quick] [--synthetic-only] [--healthy-drives N] [--seed N]
//                       [--set key=value ...]
//   keys: baseline_runs baseline_max_runs band_sigmas min_band_percent confirm_sigmas
//         confirm_min_percent peer_min_percent peer_sigmas trend_min_runs
//         trend_min_span_days trend_alpha trend_min_percent_per_month
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numbers>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "alert/alert_lifecycle.h"
#include "benchmarks/detect_field.h"
#include "base/fake_clock.h"
#include "bench/simulated_engine.h"
#include "bench/workload.h"
#include "bench/workload_runner.h"
#include "config/alerts_config.h"
#include "config/json_walker.h"
#include "detect/baseline.h"
#include "detect/change_detector.h"
#include "detect/peer_detector.h"
#include "detect/student_t.h"
#include "detect/trend_detector.h"

namespace dp {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;
constexpr std::int64_t kRetestDelay = 3600;

// ---------------------------------------------------------------------------
// Value sources: f(drive, run index, degraded?) -> one measured value.

using Source = std::function<double(int drive, int run, bool degraded)>;

struct SyntheticSource {
  SyntheticSource(double b, double f, double nz, std::mt19937_64 r)
      : base(b), degraded_factor(f), noise(nz), rng(r) {}
  double base;
  double degraded_factor;  // 0.85 for a 15% drop, 1.5 for a p99 rise
  double noise = 0.03;
  std::mt19937_64 rng;
  std::normal_distribution<double> n{0, 1};
  double operator()(int, int, bool degraded) {
    return base * (degraded ? degraded_factor : 1.0) * (1 + noise * n(rng));
  }
};

// Runs one workload on a SimulatedEngine for the drive as it is at this run.
struct SimulatedSource {
  enum Metric { kSeqMbps, kRandomP99 };
  SimulatedSource(Metric m, double f, double nz, std::mt19937_64 r)
      : metric(m), degraded_factor(f), noise(nz), rng(r) {}
  Metric metric;
  double degraded_factor;  // multiplies throughput, or latency mechanics
  double noise = 0.03;
  std::mt19937_64 rng;
  std::normal_distribution<double> n{0, 1};
  std::uint64_t runs = 0;

  double operator()(int, int, bool degraded) {
    SimulatedDrive d = SimulatedDrive::Hdd();
    d.seed = ++runs * 7919;
    double wobble = 1 + noise * n(rng);
    Workload w;
    if (metric == kSeqMbps) {
      d.throughput_scale = wobble * (degraded ? degraded_factor : 1.0);
      w.test = "seq";
      w.zone = "outer";
      w.pattern = AccessPattern::kSequential;
      w.block_size = 1 << 20;
      w.queue_depth = 1;
      w.region_begin = 0;
      w.region_end = 4ULL << 30;
      w.seconds = 1.0;
      w.warmup_seconds = 0.1;
      w.max_bytes = 1ULL << 30;
    } else {
      // Slower mechanics: seeks and rotation stretched by the factor.
      double m = wobble * (degraded ? degraded_factor : 1.0);
      d.full_stroke_ms *= m;
      d.track_to_track_ms *= m;
      d.rpm /= m;
      w.test = "random";
      w.pattern = AccessPattern::kRandom;
      w.block_size = 4096;
      w.queue_depth = 1;
      w.region_begin = 0;
      w.region_end = d.size_bytes;
      w.seconds = 60;
      w.max_ios = 2000;
      w.warmup_seconds = 0;
      w.warmup_bytes = 4096 * 20;
      w.seed = 0x6469736b70756c73 + runs;  // fresh offsets each run, like a real p99
    }
    FakeClock clock;
    SimulatedEngine engine(d, w.queue_depth, clock);
    auto r = RunWorkload(engine, w, d.logical_block_size, 4096, clock, nullptr, nullptr);
    if (!r.ok()) {
      std::fprintf(stderr, "simulated workload failed: %s\n", r.status().ToString().c_str());
      std::exit(2);
    }
    if (metric == kSeqMbps) return r->mb_per_s();
    return r->latency.ValueAtQuantile(0.99) / 1000.0;  // us
  }
};

// ---------------------------------------------------------------------------
// diskpulse's pipeline for one drive and one metric: change + trend
// detectors, alert lifecycle, re-test on "needs confirmation".

struct AlertBook {
  std::map<std::string, Alert> active;  // condition -> active alert
  int opened = 0;
  std::map<std::string, int> opened_by_prefix;

  // Returns true when an alert was opened.
  bool Apply(const Verdict& v, std::int64_t at, const AlertPolicy& policy) {
    std::optional<Alert> existing;
    if (auto it = active.find(v.condition); it != active.end()) existing = it->second;
    AlertDecision d = Update(existing, v, FromUnixSeconds(at), policy);
    if (d.write == AlertDecision::Write::kNothing) return false;
    if (d.alert.state == "resolved")
      active.erase(v.condition);
    else
      active[v.condition] = d.alert;
    if (d.notify == NotifyKind::kOpened) {
      ++opened;
      ++opened_by_prefix[v.condition.substr(0, v.condition.find(':'))];
      return true;
    }
    return false;
  }
};

struct Pipeline {
  Pipeline(detect::SeriesKey k, const DetectionConfig* c, AlertPolicy p)
      : key(std::move(k)), cfg(c), policy(p) {}
  detect::SeriesKey key;
  const DetectionConfig* cfg;
  AlertPolicy policy;
  std::vector<detect::Sample> history;
  AlertBook alerts;
  std::int64_t next_id = 1;

  struct Step {
    bool retest = false;  // a confirmation re-test is wanted
    bool slowdown_opened = false;
    bool any_opened = false;
  };

  Step Add(std::int64_t at, double value) {
    history.push_back(detect::Sample{next_id++, at, value});
    Step s;
    Verdict change = detect::EvaluateChange(key, history, *cfg);
    Verdict trend = detect::EvaluateTrend(key, history, *cfg);
    s.retest = change.kind == VerdictKind::kNeedsConfirmation;
    if (std::getenv("DQ_TRACE")) std::fprintf(stderr, "  %s\n", change.summary.c_str());
    if (alerts.Apply(change, at, policy)) s.slowdown_opened = s.any_opened = true;
    if (alerts.Apply(trend, at, policy)) s.any_opened = true;
    return s;
  }
};

// The naive rule: a run more than 20% worse than the mean of the previous 5.
struct NaiveRule {
  explicit NaiveRule(bool higher = true) : higher_is_better(higher) {}
  bool higher_is_better = true;
  std::vector<double> values;
  bool firing = false;
  int opened = 0;
  bool Add(double v) {  // true when it newly fires
    bool now = false;
    if (values.size() >= 5) {
      double mean = std::accumulate(values.end() - 5, values.end(), 0.0) / 5;
      now = higher_is_better ? v < 0.8 * mean : v > 1.2 * mean;
    }
    values.push_back(v);
    bool opened_now = now && !firing;
    firing = now;
    if (opened_now) ++opened;
    return opened_now;
  }
};

// ---------------------------------------------------------------------------
// Scenarios.

struct HealthyResult {
  int drives = 0, runs_per_drive = 0;
  long retests = 0;
  int alerts = 0, drives_with_alert = 0;
  std::map<std::string, int> by_kind;
  int naive_alerts = 0, naive_drives = 0;
  std::vector<int> alert_runs;  // scheduled run index of each false alert
};

HealthyResult Healthy(const detect::SeriesKey& key, const DetectionConfig& cfg,
                      const AlertPolicy& policy, int drives, int runs,
                      const std::function<Source(int)>& make_source) {
  HealthyResult r;
  r.drives = drives;
  r.runs_per_drive = runs;
  for (int d = 0; d < drives; ++d) {
    Source src = make_source(d);
    Pipeline p(key, &cfg, policy);
    NaiveRule naive(detect::DirectionOf(key.metric) == detect::Direction::kHigherIsBetter);
    std::int64_t t = kT0;
    for (int i = 0; i < runs; ++i, t += kWeek) {
      double v = src(d, i, false);
      naive.Add(v);
      auto s = p.Add(t, v);
      if (s.any_opened) r.alert_runs.push_back(i);
      if (s.retest) {
        ++r.retests;
        if (p.Add(t + kRetestDelay, src(d, i, false)).any_opened) r.alert_runs.push_back(i);
      }
    }
    r.alerts += p.alerts.opened;
    if (p.alerts.opened) ++r.drives_with_alert;
    for (auto& [k, n] : p.alerts.opened_by_prefix) r.by_kind[k] += n;
    r.naive_alerts += naive.opened;
    if (naive.opened) ++r.naive_drives;
  }
  return r;
}

struct DetectResult {
  int trials = 0;
  int within1 = 0, within2 = 0, within3 = 0, detected = 0;
  double runs_sum = 0;  // over detected trials
  int naive_within1 = 0, naive_within2 = 0, naive_detected = 0;
  double naive_runs_sum = 0;
  int early_alerts = 0;            // alerts before the change (false alerts)
  std::vector<std::string> early;  // kind@run of each
};

// A drive that degrades for good at a random scheduled run after its
// baseline; counts runs (re-tests included) from the first degraded run until
// the slowdown alert opens; gives up after 20 scheduled runs.
DetectResult Degrade(const detect::SeriesKey& key, const DetectionConfig& cfg,
                     const AlertPolicy& policy, int trials,
                     const std::function<Source(int)>& make_source, std::uint64_t seed) {
  DetectResult r;
  std::mt19937_64 rng(seed);
  r.trials = trials;
  for (int tr = 0; tr < trials; ++tr) {
    Source src = make_source(tr);
    Pipeline p(key, &cfg, policy);
    NaiveRule naive(detect::DirectionOf(key.metric) == detect::Direction::kHigherIsBetter);
    const int change_at = cfg.baseline_runs + 3 + static_cast<int>(rng() % 40);
    std::int64_t t = kT0;
    int runs_since = 0, naive_since = 0;
    bool found = false, naive_found = false;
    for (int i = 0; i < change_at + 20 && !(found && naive_found); ++i, t += kWeek) {
      const bool degraded = i >= change_at;
      double v = src(tr, i, degraded);
      if (degraded) ++naive_since;
      if (naive.Add(v) && degraded && !naive_found) {
        naive_found = true;
        ++r.naive_detected;
        r.naive_runs_sum += naive_since;
        if (naive_since <= 1) ++r.naive_within1;
        if (naive_since <= 2) ++r.naive_within2;
      }
      if (found) continue;
      if (degraded) ++runs_since;
      auto s = p.Add(t, v);
      if (s.any_opened && !degraded) {
        ++r.early_alerts;
        r.early.push_back((s.slowdown_opened ? "slowdown@" : "trend@") + std::to_string(i));
      }
      if (!s.slowdown_opened && s.retest) {
        double v2 = src(tr, i, degraded);
        if (degraded) ++runs_since;
        s = p.Add(t + kRetestDelay, v2);
        if (s.any_opened && !degraded) {
          ++r.early_alerts;
          r.early.push_back((s.slowdown_opened ? "slowdown@" : "trend@") + std::to_string(i));
        }
      }
      if (s.slowdown_opened && degraded) {
        found = true;
        ++r.detected;
        r.runs_sum += runs_since;
        if (runs_since <= 1) ++r.within1;
        if (runs_since <= 2) ++r.within2;
        if (runs_since <= 3) ++r.within3;
      }
    }
  }
  return r;
}

struct PeerResult {
  int trials = 0;
  int flagged_within2 = 0, flagged = 0;
  double windows_sum = 0;
  int sibling_false_flags = 0;  // healthy siblings flagged, over all windows
  long sibling_windows = 0;
  int naive_flagged = 0;  // the naive rule on the slow drive's own series
};

// Six drives of one model in one vdev, measured in the same weekly window
// (staggered by 30 minutes); drive 0 is 20% slower from its first run.
PeerResult Peers(const DetectionConfig& cfg, const AlertPolicy& policy, int trials, int windows,
                 const std::function<Source(int)>& make_source) {
  PeerResult r;
  r.trials = trials;
  const int n = 6;
  for (int tr = 0; tr < trials; ++tr) {
    std::vector<Source> src;
    for (int d = 0; d < n; ++d) src.push_back(make_source(tr * n + d));
    std::vector<detect::PeerHistory> hist(n);
    std::vector<AlertBook> books(n);
    for (int d = 0; d < n; ++d) hist[d].drive_id = hist[d].drive_name = "d" + std::to_string(d);
    NaiveRule naive;
    bool flagged = false, naive_flag = false;
    for (int w = 0; w < windows; ++w) {
      std::int64_t t = kT0 + w * kWeek;
      for (int d = 0; d < n; ++d) {
        double v = src[d](d, w, /*degraded=*/d == 0);
        hist[d].samples.push_back(detect::Sample{w + 1, t + d * 1800, v});
        if (d == 0 && naive.Add(v) && !naive_flag) {
          naive_flag = true;
          ++r.naive_flagged;
        }
      }
      for (int d = 0; d < n; ++d) {
        detect::SeriesKey key{hist[d].drive_id, hist[d].drive_id, "seq", "outer", "mb_per_s"};
        // EvaluatePeers skips the entry of the drive itself.
        Verdict v = detect::EvaluatePeers(key, hist[d].samples, hist, cfg);
        bool opened = books[d].Apply(v, t + d * 1800, policy);
        if (d == 0 && opened && !flagged) {
          flagged = true;
          ++r.flagged;
          r.windows_sum += w + 1;
          if (w + 1 <= 2) ++r.flagged_within2;
        }
        if (d != 0) {
          ++r.sibling_windows;
          if (opened) ++r.sibling_false_flags;
        }
      }
    }
  }
  return r;
}

// ---------------------------------------------------------------------------
// Theory: the change rule's false-alarm and detection probabilities for
// Gaussian noise, computed with detect's own bands (BandOf, PairBandOf) over
// the sampling distribution of a baseline of n runs: its mean C ~ N(mu,
// sigma^2/n) and its sigma estimate s with (n-1) s^2 c4^2 / sigma^2 ~ chi^2
// with n-1 degrees of freedom (Cochran's theorem; C and s independent).
// An alert needs two consecutive runs x1, x2 below the band's low end L and
// their mean below the pair band's low end P.

double Phi(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double NormalPdf(double z) { return std::exp(-z * z / 2) / std::sqrt(2 * std::numbers::pi); }

// P(X1 < L, X2 < L, X1 + X2 < 2P) for X1, X2 iid N(m, sd): trapezoid over x1.
double PairBelow(double m, double sd, double low, double pair) {
  const double u = (m - low) / sd, w = 2 * (m - pair) / sd;  // z = (m - x) / sd
  const double lo = std::max(u, -10.0), hi = std::max(u, 0.0) + 10;
  if (lo >= hi) return 0;
  const int steps = 160;
  const double h = (hi - lo) / steps;
  double total = 0;
  for (int i = 0; i <= steps; ++i) {
    const double z = lo + i * h;
    total += (i == 0 || i == steps ? 0.5 : 1) * NormalPdf(z) * (1 - Phi(std::max(u, w - z)));
  }
  return total * h;
}

struct TheoryRates {
  double false_alarm = 0;  // per scheduled run of a healthy drive
  double detect = 0;       // P(alerted on the first degraded run and its re-test)
};

// noise: relative sigma; factor: the degraded level (0.85 = a 15% drop).
TheoryRates RuleTheory(const DetectionConfig& cfg, int n, double noise, double factor) {
  TheoryRates r;
  const double df = n - 1;
  const double c4 = 1 - 1.0 / (4.0 * n) - 7.0 / (32.0 * n * n);
  // chi^2 density on a grid wide enough for its tails.
  const double xlo = std::max(1e-9, df - 9 * std::sqrt(2 * df)),
               xhi = df + 12 * std::sqrt(2 * df) + 12;
  const int xs = 120, es = 48;
  double wsum = 0;
  std::vector<std::pair<double, double>> chi;  // (s / sigma, weight)
  for (int i = 0; i <= xs; ++i) {
    const double x = xlo + (xhi - xlo) * i / xs;
    const double w = std::exp((df / 2 - 1) * std::log(x) - x / 2 - (df / 2) * std::log(2.0) -
                              std::lgamma(df / 2));
    chi.emplace_back(std::sqrt(x / df) / c4, w);
    wsum += w;
  }
  for (auto& [s, w] : chi) w /= wsum;
  const bool higher = factor < 1;  // a drop; else a rise (mirrored)
  for (auto& [s, ws] : chi) {
    double esum = 0, fa = 0, det = 0;
    for (int j = -es; j <= es; ++j) {
      const double e = 6.0 * j / es;  // centre error in its own sds
      const double we = NormalPdf(e);
      // The rule works on logs: noise is the log-scale sd (the CV).
      detect::Baseline b;
      b.log_center = noise * e / std::sqrt(static_cast<double>(n));
      b.center = b.median = std::exp(b.log_center);
      b.log_sigma = noise * s;
      b.runs = n;
      b.ready = true;
      const detect::BandWidths w = detect::SingleWidths(b, cfg), pw = detect::PairWidths(b, cfg);
      // Mirror a rise into a drop around 0 so one integral serves both.
      const double low = b.log_center - (higher ? w.low : w.high);
      const double plow = b.log_center - (higher ? pw.low : pw.high);
      const double degraded = higher ? std::log(factor) : -std::log(factor);
      fa += we * PairBelow(0, noise, low, plow);
      det += we * PairBelow(degraded, noise, low, plow);
      esum += we;
    }
    r.false_alarm += ws * fa / esum;
    r.detect += ws * det / esum;
  }
  return r;
}

void PrintTheory(const DetectionConfig& cfg, double noise, int runs, int drives) {
  std::map<int, TheoryRates> at;
  auto rates = [&](int n) {
    n = std::min(n, cfg.baseline_max_runs);
    if (!at.count(n)) at[n] = RuleTheory(cfg, n, noise, 0.85);
    return at[n];
  };
  // The baseline grows by about one run per scheduled run up to its cap.
  double fa_drive = 0;
  for (int run = cfg.baseline_runs; run < runs; ++run) fa_drive += rates(run).false_alarm;
  double det = 0;  // the bench's drop starts at a uniform run in [N + 3, N + 42]
  for (int k = 0; k < 40; ++k) det += rates(cfg.baseline_runs + 3 + k).detect / 40;
  std::printf("theory (Gaussian %.0f%% noise, the rule over a baseline of n runs):\n", noise * 100);
  for (int n : {5, 8, 12, 20, 30, 50, 100, 200}) {
    if (n > cfg.baseline_max_runs) break;
    TheoryRates r = rates(n);
    std::printf("  n=%3d  false alarm per run %.2e  15%% drop alerted at its first two runs %.4f\n",
                n, r.false_alarm, r.detect);
  }
  std::printf(
      "  expected false alerts per healthy drive over %d runs %.2e (x %d drives = %.3f); "
      "15%% drop within 2 runs (drop at run N+3..N+42) %.2f%%\n\n",
      runs, fa_drive, drives, fa_drive * drives, 100 * det);
}

double Pct(int a, int b) { return b ? 100.0 * a / b : 0; }

void PrintHealthy(const char* source, const char* metric, const HealthyResult& h) {
  std::string kinds;
  for (auto& [k, n] : h.by_kind) kinds += " " + k + "=" + std::to_string(n);
  if (!h.alert_runs.empty()) {
    kinds += " at runs";
    for (int i : h.alert_runs) kinds += " " + std::to_string(i);
  }
  std::printf(
      "| %-9s | healthy   | %-8s | %4d drives x %d runs | %d false alerts (%d drives)%s, "
      "%ld re-tests | %d false alerts (%d drives) |\n",
      source, metric, h.drives, h.runs_per_drive, h.alerts, h.drives_with_alert, kinds.c_str(),
      h.retests, h.naive_alerts, h.naive_drives);
}

void PrintDetect(const char* source, const char* scenario, const char* metric,
                 const DetectResult& d) {
  std::string early;
  for (const auto& e : d.early) early += " " + e;
  if (!early.empty()) early = " (" + early.substr(1) + ")";
  std::printf(
      "| %-9s | %-9s | %-8s | %4d trials | within 1 run: %5.1f%%, 2: %5.1f%%, 3: %5.1f%%, "
      "detected %5.1f%% (mean %.2f runs), %d early alerts%s | within 1 run: %5.1f%%, 2: %5.1f%%, "
      "detected in 20 runs %5.1f%% |\n",
      source, scenario, metric, d.trials, Pct(d.within1, d.trials), Pct(d.within2, d.trials),
      Pct(d.within3, d.trials), Pct(d.detected, d.trials),
      d.detected ? d.runs_sum / d.detected : 0.0, d.early_alerts, early.c_str(),
      Pct(d.naive_within1, d.trials), Pct(d.naive_within2, d.trials),
      Pct(d.naive_detected, d.trials));
}

void PrintPeers(const char* source, const PeerResult& p) {
  std::printf(
      "| %-9s | peer20    | mb_per_s | %4d vdevs x 6 drives | slow drive flagged within 2 "
      "windows: %5.1f%% (ever %5.1f%%, mean %.2f windows); healthy siblings flagged: %d in "
      "%ld drive-windows | slow drive flagged: %5.1f%% |\n",
      source, p.trials, Pct(p.flagged_within2, p.trials), Pct(p.flagged, p.trials),
      p.flagged ? p.windows_sum / p.flagged : 0.0, p.sibling_false_flags, p.sibling_windows,
      Pct(p.naive_flagged, p.trials));
}

bool SetKey(DetectionConfig& c, const std::string& kv) {
  // Through the daemon's own reader of "alerts.detection", so a key means
  // here what it means in the configuration file, with its checks.
  const auto eq = kv.find('=');
  if (eq == std::string::npos) return false;
  const nlohmann::json value = nlohmann::json::parse(kv.substr(eq + 1), nullptr, false);
  if (value.is_discarded()) return false;
  const nlohmann::json alerts = {{"detection", {{kv.substr(0, eq), value}}}};
  ConfigProblems problems(kv, "--set");
  AlertsConfig read;
  read.detection = c;
  {
    JsonWalker walker(alerts, "alerts", problems);
    ReadAlerts(walker, read);
  }
  if (!problems.empty()) {
    std::fprintf(stderr, "%s\n", problems.Joined().c_str());
    return false;
  }
  c = read.detection;
  return true;
}

// The field model (benchmarks/detect_field.cc): every noise level, healthy drives
// and the two changes, with and without unseen interference.
int RunField(const DetectionConfig& cfg, const field::Model& base, const std::vector<double>& levels,
             int drives, int years, int trials, double retest_hours, std::uint64_t seed,
             int threads) {
  std::printf(
      "field model: 13 series per drive, Student-t noise (nu %s) at the level below, shared "
      "weekly factor %.1f%%, seasonal swing %.1f%%, unseen interference on %.1f%% of runs "
      "(10-60%% worse, median 30 min, log-sd 1.5), re-test %.0f h after a doubtful run; %d "
      "drives x %d years healthy in vdevs of %d (peers judged; a unit's own level sd %.1f%%), %d "
      "trials per change on a drive alone; each run judged by detect::JudgeRun and applied by "
      "alert/alert_events.h's ApplyVerdicts; box-wide step %.0f%%; hours-long housekeeping on "
      "%.0f%% of drives, %.1f%% of their weeks; seed %llu\n\n",
      base.gaussian ? "inf: Gaussian" : "30 MB/s and IOPS, 10 access times, 3-5 p99", 100 * base.shared, 100 * base.season,
      100 * base.interference, retest_hours, drives, years, base.vdev, 100 * base.unit, trials,
      100 * base.box_step, 100 * base.housekeeping, 100 * base.housekeeping_rate,
      static_cast<unsigned long long>(seed));
  std::printf(
      "| noise CV | notified per 1000 drive-years (environment notices / box steps) | false "
      "alert events per 1000 drive-years (drive-weeks with an alert) | "
      "alerts opened per 1000 drive-years (slowdown + trend + peer + environment) | re-tests, %% "
      "of scheduled runs | 15%% drop: within 2 runs / 4 / mean (no interference) | 15%% drop: "
      "within 2 / 4 / mean (interference) | 15%% drop notified within 2 weeks (no interference / "
      "interference) | p99 x1.5: within 2 / 3 / mean (no interference) | p99 x1.5: "
      "within 3 (interference) | seek +25%%: within 2 runs / notified within 2 weeks (no "
      "interference / interference) |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (double level : levels) {
    field::Model m = base;
    m.noise = level / 100;
    m.retest_seconds = static_cast<std::int64_t>(retest_hours * 3600);
    field::HealthyFigures h = field::RunHealthy(m, cfg, drives, years, seed, threads);
    field::Model quiet = m;
    quiet.interference = 0;
    auto d0 = field::RunDelay(quiet, cfg, field::Change::kDrop15, trials, seed + 1, threads);
    auto d1 = field::RunDelay(m, cfg, field::Change::kDrop15, trials, seed + 2, threads);
    auto p0 = field::RunDelay(quiet, cfg, field::Change::kP99Rise, trials, seed + 3, threads);
    auto p1 = field::RunDelay(m, cfg, field::Change::kP99Rise, trials, seed + 4, threads);
    auto s0 = field::RunDelay(quiet, cfg, field::Change::kSeekRise25, trials, seed + 5, threads);
    auto s1 = field::RunDelay(m, cfg, field::Change::kSeekRise25, trials, seed + 6, threads);
    auto mean = [](const field::DelayFigures& d) { return d.detected ? d.runs_sum / d.detected : 0; };
    std::printf(
        "| %4.1f%% | %.2f (%ld in %.0f drive-years; %ld / %ld) | %.1f (%ld) | %.2f (%ld + %ld + "
        "%ld + %ld, %ld drives) | %.1f%% | "
        "%5.1f%% / %5.1f%% "
        "/ %.1f | %5.1f%% / %5.1f%% / %.1f | %5.1f%% / %5.1f%% | %5.1f%% / %5.1f%% / %.1f | "
        "%5.1f%% | %5.1f%% / %5.1f%% / %5.1f%% |\n",
        level, h.NotifiedPerThousandDriveYears(), h.notified, h.drive_years,
        h.environment_notices, h.box_events, h.EventsPerThousandDriveYears(), h.alert_weeks,
        h.PerThousandDriveYears(), h.slowdown, h.trend, h.peer, h.environment,
        h.drives_with_alert, h.scheduled_runs ? 100.0 * h.retests / h.scheduled_runs : 0.0, Pct(d0.within2, d0.trials),
        Pct(d0.within4, d0.trials), mean(d0), Pct(d1.within2, d1.trials),
        Pct(d1.within4, d1.trials), mean(d1), Pct(d0.notified_within2_weeks, d0.trials),
        Pct(d1.notified_within2_weeks, d1.trials), Pct(p0.within2, p0.trials),
        Pct(p0.within3, p0.trials), mean(p0), Pct(p1.within3, p1.trials),
        Pct(s0.within2, s0.trials), Pct(s0.notified_within2_weeks, s0.trials),
        Pct(s1.notified_within2_weeks, s1.trials));
    std::fflush(stdout);
    // The single-run band's calibration by baseline size: nominal is the
    // normal tail beyond band_sigmas (where the floor does not bind).
    std::fprintf(stderr, "%4.1f%%: single band passed by healthy scheduled runs, %% (runs), "
                 "baseline 5-8 / 9-15 / 16-30 / 31-99 / 100 runs; nominal %.2f%%:\n",
                 level, 100 * detect::NormalCdf(-cfg.band_sigmas));
    for (int k = 0; k < field::HealthyFigures::kKinds; ++k) {
      std::fprintf(stderr, "%4.1f%%:   %-9s", level,
                   k == 0 ? "MB/s+IOPS" : k == 1 ? "access" : "p99");
      for (int a = 0; a < field::HealthyFigures::kAges; ++a)
        std::fprintf(stderr, " %5.2f (%ld)",
                     h.band_judged[k][a] ? 100.0 * h.band_outside[k][a] / h.band_judged[k][a] : 0,
                     h.band_judged[k][a]);
      std::fprintf(stderr, "\n");
    }
    // Alerts opened before the change began are false alerts too, and an
    // alert still open when it begins hides its own detection.
    std::fprintf(stderr,
                 "%4.1f%%: alerts before the change: drop %d / %d, p99 %d / %d (no interference / "
                 "interference)\n",
                 level, d0.early_alerts, d1.early_alerts, p0.early_alerts, p1.early_alerts);
    // Whether the verdicts' "seen within ~N runs" held: the fewest runs any
    // changed series promised when the change began, against when it was
    // alerted; the 2-run figure where the daemon itself measured the
    // best-placed changed series at a noise CV of 3% or less; and the changes
    // never alerted (in 20 weeks, or the runs promised if longer): a change
    // whose runs joined the baseline first is a miss the delay columns hide.
    auto promise = [&](const char* what, const field::DelayFigures& d) {
      std::fprintf(stderr,
                   "%4.1f%%: %s: alerted within the runs promised %d / %d (%.1f%%); promised 2: "
                   "%d / %d (%.1f%%); measured CV <= 3%%: within 2 %d / %d (%.1f%%); never "
                   "alerted %d / %d (%.1f%%)\n",
                   level, what, d.kept, d.promised, Pct(d.kept, d.promised), d.kept2,
                   d.promised2, Pct(d.kept2, d.promised2), d.low_noise2, d.low_noise,
                   Pct(d.low_noise2, d.low_noise), d.trials - d.detected, d.trials,
                   Pct(d.trials - d.detected, d.trials));
    };
    promise("drop, no interference", d0);
    promise("drop, interference", d1);
    promise("p99, no interference", p0);
  }
  return 0;
}

// Peers per cycle, through the product's path (field::RunPeerSlow): for
// each group shape and each place of the slow drive in the week's run order,
// how often its slowdown event was notified with a peer verdict, after how
// many weekly cycles, and the healthy drives' notifications.
int RunPeerTable(const DetectionConfig& cfg, const field::Model& base,
                 const std::vector<double>& levels, int trials, int weeks, bool from_start,
                 std::uint64_t seed, int threads, const std::string& only) {
  const std::vector<field::PeerLayout> layouts = {
      {"raidz 4", {4}},
      {"raidz 6", {6}},
      {"raidz 8", {8}},
      {"raidz 12", {12}},
      {"mirrors 3x2", {2, 2, 2}},
      {"mirror 2", {2}},
      {"mixed raidz 4", {4}, true},
      {"mixed raidz 8", {8}, true},
  };
  // A group compared by change (two models), or a lone pair (either side
  // could be the one that differs), cannot tell a drive slow from its first
  // run: there the drive slows after its baseline formed.
  auto by_change = [](const field::PeerLayout& l) {
    return l.mixed || (l.vdevs.size() == 1 && l.vdevs[0] == 2);
  };
  std::printf("peers per cycle: one drive's rates x%.2f and times x%.2f %s, %d weeks after; "
              "%d trials a cell; weekly cycles, drives 30 min apart, re-tests %.0f h later\n",
              base.peer_slow_rate, base.peer_slow_time,
              from_start ? "from its first run" : "from a week in 10-19", weeks, trials,
              static_cast<double>(base.retest_seconds) / 3600);
  std::printf("| noise | group | slow drive runs | notified | mean cycles | healthy drives "
              "notified / 1000 drive-years | healthy drives given a peer verdict |\n"
              "|---|---|---|---|---|---|---|\n");
  const char* places[] = {"first", "middle", "last"};
  for (double level : levels) {
    field::Model m = base;
    m.noise = level / 100;
    for (const auto& layout : layouts) {
      if (!only.empty() && only != layout.name) continue;
      for (int position = 0; position < 3; ++position) {
        const field::PeerFigures f = field::RunPeerSlow(
            m, cfg, layout, position, from_start && !by_change(layout), trials, weeks,
            seed + static_cast<std::uint64_t>(position), threads);
        std::printf("| %.0f%% | %s%s | %s | %d / %d (%.1f%%) | %.1f | %.1f | %ld |\n", level,
                    layout.name, by_change(layout) && from_start ? " (from week 10-19)" : "",
                    places[position], f.notified, f.trials, Pct(f.notified, f.trials),
                    f.notified ? f.cycles_sum / f.notified : 0,
                    f.healthy_drive_years > 0 ? 1000.0 * f.false_notified / f.healthy_drive_years
                                              : 0,
                    f.false_peer);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

int Main(int argc, char** argv) {
  DetectionConfig cfg;
  bool quick = false, synthetic_only = false, theory_only = false, field_mode = false;
  bool peers_mode = false, from_start = true;
  int peer_weeks = 8;
  std::string peer_only;
  int healthy_drives = 0, field_drives = 200, field_years = 10, field_trials = 400, threads = 2;
  double retest_hours = 6;
  field::Model model;
  std::vector<double> levels = {1, 2, 3, 5, 7, 10, 15};
  std::uint64_t seed = 20260101;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--theory"))
      theory_only = true;
    else if (!std::strcmp(argv[i], "--field"))
      field_mode = true;
    else if (!std::strcmp(argv[i], "--peers"))
      peers_mode = true;
    else if (!std::strcmp(argv[i], "--peer-weeks") && i + 1 < argc)
      peer_weeks = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--peer-change"))
      from_start = false;
    else if (!std::strcmp(argv[i], "--peer-group") && i + 1 < argc)
      peer_only = argv[++i];
    else if (!std::strcmp(argv[i], "--drives") && i + 1 < argc)
      field_drives = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--years") && i + 1 < argc)
      field_years = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--trials") && i + 1 < argc)
      field_trials = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--shared") && i + 1 < argc)
      model.shared = std::atof(argv[++i]) / 100;
    else if (!std::strcmp(argv[i], "--season") && i + 1 < argc)
      model.season = std::atof(argv[++i]) / 100;
    else if (!std::strcmp(argv[i], "--interference") && i + 1 < argc)
      model.interference = std::atof(argv[++i]) / 100;
    else if (!std::strcmp(argv[i], "--gaussian"))
      model.gaussian = true;
    else if (!std::strcmp(argv[i], "--vdev") && i + 1 < argc)
      model.vdev = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--box-vdevs") && i + 1 < argc)
      model.box_vdevs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--box-step") && i + 1 < argc)
      model.box_step = std::atof(argv[++i]) / 100;
    else if (!std::strcmp(argv[i], "--housekeeping") && i + 1 < argc)
    {
      // PCT-OF-DRIVES[,PCT-OF-THEIR-WEEKS]
      const char* arg = argv[++i];
      model.housekeeping = std::atof(arg) / 100;
      if (const char* comma = std::strchr(arg, ',')) model.housekeeping_rate = std::atof(comma + 1) / 100;
    }
    else if (!std::strcmp(argv[i], "--unit") && i + 1 < argc)
      model.unit = std::atof(argv[++i]) / 100;
    else if (!std::strcmp(argv[i], "--retest-hours") && i + 1 < argc)
      retest_hours = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--noise") && i + 1 < argc) {
      levels.clear();
      for (char* p = argv[++i]; *p;) {
        levels.push_back(std::strtod(p, &p));
        if (*p == ',') ++p;
        else if (*p) break;
      }
    } else if (!std::strcmp(argv[i], "--synthetic-only"))
      synthetic_only = true;
    else if (!std::strcmp(argv[i], "--healthy-drives") && i + 1 < argc)
      healthy_drives = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--set") && i + 1 < argc && SetKey(cfg, argv[i + 1]))
      ++i;
    else {
      std::fprintf(
          stderr,
          "usage: detect_quality [--quick] [--synthetic-only] [--healthy-drives N] [--seed N] "
          "[--set key=value]...\n"
          "       detect_quality --field [--noise 1,2,3,...] [--drives N] [--years Y] "
          "[--trials T] [--retest-hours H] [--threads N] [--seed N] [--set key=value]...\n"
          "         [--shared PCT] [--season PCT] [--interference PCT] [--gaussian]\n"
          "         [--vdev N] [--box-vdevs N] [--unit PCT] [--box-step PCT] [--housekeeping PCT-OF-DRIVES[,PCT-OF-WEEKS]]\n"
          "       detect_quality --peers [--noise 3,5,...] [--trials T] [--peer-weeks W] "
          "[--peer-change] [--peer-group NAME] [--threads N] [--seed N]\n");
      return 2;
    }
  }
  if (peers_mode)
    return RunPeerTable(cfg, model, levels, field_trials, peer_weeks, from_start, seed, threads,
                        peer_only);
  if (field_mode)
    return RunField(cfg, model, levels, field_drives, field_years, field_trials, retest_hours,
                    seed, threads);
  AlertPolicy policy;  // defaults: resolve after 3 clear runs
  std::printf(
      "detection config: baseline_runs=%d..%d band_sigmas=%.2f min_band_percent=%.1f "
      "confirm_sigmas=%.2f confirm_min_percent=%.1f peer_min_percent=%.1f peer_sigmas=%.1f "
      "trend_alpha=%g trend_min=%.1f%%/month; "
      "noise 3%%, weekly runs, re-test 1 h after a doubtful run; seed %llu\n\n",
      cfg.baseline_runs, cfg.baseline_max_runs, cfg.band_sigmas, cfg.min_band_percent,
      cfg.confirm_sigmas, cfg.confirm_min_percent, cfg.peer_min_percent, cfg.peer_sigmas,
      cfg.trend_alpha, cfg.trend_min_percent_per_month, static_cast<unsigned long long>(seed));
  PrintTheory(cfg, 0.03, 500, quick ? 40 : 200);
  if (theory_only) return 0;
  std::printf(
      "| source    | scenario  | metric   | size | diskpulse (change + trend + peers, alert "
      "lifecycle) | naive: one run 20%% worse than the mean of the last 5 |\n");
  std::printf("|---|---|---|---|---|---|\n");

  const detect::SeriesKey tput{"d", "d", "seq", "outer", "mb_per_s"};
  const detect::SeriesKey p99{"d", "d", "random", "qd1-4k", "p99_us"};
  std::uint64_t s = seed;
  auto synth = [&](double base, double factor) {
    return [&s, base, factor](int) -> Source {
      return SyntheticSource{base, factor, 0.03, std::mt19937_64(++s)};
    };
  };
  const int drives = healthy_drives > 0 ? healthy_drives : quick ? 40 : 200;
  const int trials = quick ? 300 : 2000, vdevs = quick ? 50 : 300;
  PrintHealthy("synthetic", "mb_per_s", Healthy(tput, cfg, policy, drives, 500, synth(200, 1)));
  PrintHealthy("synthetic", "p99_us", Healthy(p99, cfg, policy, drives, 500, synth(25000, 1)));
  PrintDetect("synthetic", "drop15", "mb_per_s",
              Degrade(tput, cfg, policy, trials, synth(200, 0.85), seed + 1));
  PrintDetect("synthetic", "p99x1.5", "p99_us",
              Degrade(p99, cfg, policy, trials, synth(25000, 1.5), seed + 2));
  PrintPeers("synthetic", Peers(cfg, policy, vdevs, 500, synth(200, 0.8)));
  if (synthetic_only) return 0;

  auto sim = [&](SimulatedSource::Metric m, double factor) {
    return [&s, m, factor](int) -> Source {
      return SimulatedSource{m, factor, 0.03, std::mt19937_64(++s)};
    };
  };
  const int sim_drives = quick ? 3 : 6, sim_trials = quick ? 30 : 100, sim_vdevs = quick ? 2 : 4;
  PrintHealthy("simulated", "mb_per_s",
               Healthy(tput, cfg, policy, sim_drives, 500, sim(SimulatedSource::kSeqMbps, 1)));
  PrintHealthy("simulated", "p99_us",
               Healthy(p99, cfg, policy, sim_drives, 500, sim(SimulatedSource::kRandomP99, 1)));
  PrintDetect(
      "simulated", "drop15", "mb_per_s",
      Degrade(tput, cfg, policy, sim_trials, sim(SimulatedSource::kSeqMbps, 0.85), seed + 3));
  PrintDetect(
      "simulated", "p99x1.5", "p99_us",
      Degrade(p99, cfg, policy, sim_trials, sim(SimulatedSource::kRandomP99, 1.5), seed + 4));
  PrintPeers("simulated", Peers(cfg, policy, sim_vdevs, 500, sim(SimulatedSource::kSeqMbps, 0.8)));
  return 0;
}

}  // namespace
}  // namespace dp

int main(int argc, char** argv) { return dp::Main(argc, argv); }
