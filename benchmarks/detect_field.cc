// detect_field: false alerts per healthy drive-year and delays to alert under
// a field noise model — what a NAS owner's drive really looks like to
// diskpulse, not one series of 3% Gaussian noise. Not a test: it prints a table.
//
// One simulated drive is the 13 judged series of the default weekly run
// (zones outer/middle/inner MB/s; seek full/half/quarter/short-forward/
// short-backward access time; random QD1 and QD32 IOPS and p99 latency; seq
// MB/s), each through the real pipeline: detect::EvaluateChange and
// EvaluateTrend per series, the alert lifecycle, and a confirmation re-test of
// the whole test (all its series) `retest` after a run that asks for one.
//
// Noise, on the log scale (every metric is a positive rate or time):
//   per series   sigma = the noise level (CV) x Student-t scaled to unit
//                variance, its degrees of freedom by the kind of figure:
//                MB/s and IOPS (means of thousands of I/Os) nu = 30, access
//                times (means of hundreds of seeks) nu = 10, p99 latencies
//                (an extreme quantile of one run) nu in {3, 4, 5};
//   per run      a factor shared by every series of the run (temperature,
//                controller, background housekeeping), sd `shared` (1%);
//   seasonal     a yearly swing of amplitude `season` (2%), its own phase per
//                drive;
//   interference an event the contention guard cannot see (SMR housekeeping,
//                thermal throttling, a neighbour on the same HBA) on a
//                fraction `interference` (2%) of scheduled runs, making every
//                series of the run worse by 10-60%; it lasts a log-normal time
//                (median 30 min, log-sd 1.5: 5% last past 6 h, 0.5% past a
//                day) and a re-test inside that time sees it too.
//   unit         each drive's own level of each figure among drives of its
//                model, sd `unit` (2%) on the log scale, fixed for its life;
//                what a peer comparison sees as a drive unlike its siblings.
// Healthy drives live in vdevs of `vdev` (3: the smallest raidz, each drive
// with two siblings, the peer rule's hardest case): each week every member
// runs its tests, 30 minutes apart, then each runs its re-tests, and every
// run is judged against the siblings too (EvaluatePeers), as the evaluator
// does. They share the yearly swing (one box, one room); the week factor
// and interference are each drive's own (shared, the peer rule would cancel
// them, so independent is the harder case for it). The delay scenarios judge a drive alone: the peer rule
// would only help them.
// Where these come from: the run-to-run CV of sequential MB/s of one HDD is
// 0.5-2% in published repeated runs (e.g. StorageReview's and the seeds' dd
// series), p99 latency of a few thousand random reads 5-15%; the loop-device
// e2e runs here (50 MB/s cap) give 1-3% for MB/s. The model's noise levels span
// 1% to 15% so every series of every drive is covered, whatever its class.
//
// Scenarios, per noise level (every series of the drive at that CV):
//   healthy   N drives x Y years of weekly runs: every alert is false;
//             reported per 1000 drive-years (all 13 series, change + trend);
//   drop15    zones and seq drop 15% for good at a random scheduled run after
//             the baseline: runs (re-tests counted) to the first slowdown
//             alert on any of them;
//   p99x1.5   both p99 series rise 1.5x the same way.
// Each detection scenario runs with interference off (the ideal drive) and on.
#include "benchmarks/detect_field.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "alert/alert_events.h"
#include "alert/alert_lifecycle.h"
#include "alert/alert_service.h"
#include "detect/judge.h"
#include "detect/memory_effects.h"
#include "detect/memory_series_history.h"
#include "detect/series.h"
#include "model/condition.h"

namespace dp::field {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;
constexpr double kYear = 365.25 * 86400;

struct SeriesDef {
  const char* test;
  const char* series;
  const char* metric;
  double base;
};

// The default weekly run's judged series, with plausible HDD levels.
const SeriesDef kSeries[] = {
    {"zones", "outer", "mb_per_s", 250},         {"zones", "middle", "mb_per_s", 200},
    {"zones", "inner", "mb_per_s", 120},         {"seek", "full", "access_ms", 18},
    {"seek", "half", "access_ms", 13},           {"seek", "quarter", "access_ms", 10},
    {"seek", "short-forward", "access_ms", 4},   {"seek", "short-backward", "access_ms", 5},
    {"random", "qd1-4k", "iops", 80},            {"random", "qd1-4k", "p99_us", 25000},
    {"random", "qd32-4k", "iops", 200},          {"random", "qd32-4k", "p99_us", 300000},
    {"seq", "qd8-1m", "mb_per_s", 200},
};
constexpr int kN = sizeof(kSeries) / sizeof(kSeries[0]);

bool IsThroughput(int i) {
  return std::string(kSeries[i].metric) == "mb_per_s";
}
bool IsP99(int i) { return std::string(kSeries[i].metric) == "p99_us"; }
// Tails by what the figure is: MB/s and IOPS are means over thousands of
// I/Os (near-normal by the central limit theorem: nu = 30), an access time a
// mean over a few hundred seeks (nu = 10), a p99 an extreme quantile of one
// run's latencies (nu 3 to 5: heavy).
double TailOf(int i, std::uint64_t draw) {
  const std::string metric = kSeries[i].metric;
  if (metric == "p99_us") return 3 + static_cast<double>(draw % 3);
  if (metric == "access_ms") return 10;
  return 30;
}

bool Higher(int i) {
  return detect::DirectionOf(kSeries[i].metric) == detect::Direction::kHigherIsBetter;
}

// The point shape of series i, as the bench stores it: SeriesOf of the
// point names the series again (zones by zone, seek by stroke, random and
// seq by block size and queue depth).
BenchPoint PointShapeOf(int i) {
  BenchPoint p;
  p.test = kSeries[i].test;
  const std::string test = p.test, series = kSeries[i].series;
  if (test == "zones") p.zone = series;
  if (test == "seek") p.stroke = series;
  if (test == "random") {
    p.block_size = 4096;
    p.queue_depth = series == "qd1-4k" ? 1 : 32;
  }
  if (test == "seq") {
    p.block_size = 1 << 20;
    p.queue_depth = 8;
  }
  return p;
}

// The index of a series in kSeries (-1: the joint series or none).
int SeriesIndexOf(const std::string& test, const std::string& series, const std::string& metric) {
  for (int i = 0; i < kN; ++i)
    if (test == kSeries[i].test && series == kSeries[i].series && metric == kSeries[i].metric)
      return i;
  return -1;
}
int SeriesIndexOf(const Verdict& v) { return SeriesIndexOf(v.test, v.series, v.metric); }

// A vdev as the daemon's store holds it: every member's runs, and the
// alerts open on any of them (an environment alert is filed under one
// member for the vdev).
struct Box {
  Box() : effects(history) {
    // A sibling alerted as slowing before a shift keeps its baselines: the
    // judge asks the alerts, as the daemon's store answers it.
    history.SetSlowingBefore([this](const std::string& drive, std::int64_t at) {
      for (const auto& [key, a] : active)
        if (key.first == drive && SlowingBefore(a, at)) return true;
      return false;
    });
  }
  Box(const Box&) = delete;
  Box& operator=(const Box&) = delete;

  detect::MemorySeriesHistory history;
  // What a judgement writes, through the daemon's ApplyJudgement.
  detect::MemoryEffects effects;
  std::map<std::pair<std::string, std::string>, Alert> active;  // (drive, condition)
  // Re-tests a peer judgement asked of a drive other than the one that ran.
  std::map<std::string, std::vector<std::string>> retests_for;
  // By drive: its slowdown event notified as opened, and peer-outlier
  // verdicts it was given (whichever drive's run made them due).
  std::map<std::string, int> notified_slowdown, peer_outliers;
};

// One drive through its life: noise, interference, re-tests, and each run
// judged by detect::JudgeRun, the daemon's own judge, over the box's history.
class Drive {
 public:
  // season_phase: the yearly swing's phase when the drive shares its room
  // with others (a vdev); its own otherwise.
  Drive(const Model& m, const DetectionConfig& cfg, std::uint64_t seed, Box& box,
        std::string id = "d", std::optional<double> season_phase = std::nullopt,
        std::string model = "field-model-hdd")
      : m_(m), cfg_(cfg), rng_(seed), seed_(seed), box_(box), id_(std::move(id)),
        model_(std::move(model)) {
    std::uniform_real_distribution<double> u(0, 2 * M_PI);
    phase_ = u(rng_);
    if (season_phase) phase_ = *season_phase;
    // The unit's own level of each figure, from a stream of its own so the
    // rest of the drive's story is the same with or without it.
    std::mt19937_64 unit_rng(seed ^ 0x9e3779b97f4a7c15ULL);
    for (int i = 0; i < kN; ++i) {
      nu_[i] = TailOf(i, rng_());
      unit_[i] = m_.unit * std::normal_distribution<double>(0, 1)(unit_rng);
    }
    housekeeping_ = m_.housekeeping > 0 &&
                    std::uniform_real_distribution<double>(0, 1)(unit_rng) < m_.housekeeping;
    box_.history.AddDrive({id_, id_, model_});
  }

  const std::string& id() const { return id_; }
  static long TestCount() { return static_cast<long>(Tests().size()); }

  struct Event {
    int opened_slowdown = 0, opened_trend = 0, opened_peer = 0, opened_environment = 0;
    int notified = 0, notified_slowdown = 0, notified_environment = 0, absorbed = 0;
    int retests = 0;
    bool slowdown_on_scheduled = false;  // opened by the scheduled run, before any re-test
    // Of the changed series (factor != 1) at the scheduled run: the fewest
    // runs a verdict promised to see the probe change in (0: none promised),
    // and the lowest noise CV (percent) any of them measured.
    int promised = 0;
    double least_noise = 0;
    int Opened() const { return opened_slowdown + opened_trend + opened_peer + opened_environment; }
  };

  // One scheduled weekly run at `at` with the degradation `factor[i]` (1 =
  // healthy; <1 a drop of a throughput, >1 a rise of a time) in force.
  Event Scheduled(std::int64_t at, const std::vector<double>& factor) {
    Begin(at, factor);
    return Finish();
  }

  // The scheduled run alone (Begin) and its re-tests (Finish): the drives of
  // a vdev each run before any of them re-tests, as the daemon staggers them.
  void Begin(std::int64_t at, const std::vector<double>& factor) {
    pending_ = Pending{};
    pending_.at = at;
    pending_.factor = factor;
    Event& ev = pending_.ev;
    // Interference starting at this run, and how long it lasts.
    Reseed(at, 0);
    double interference = 0, lasts = 0;
    if (m_.interference > 0 && Uniform() < m_.interference) {
      interference = std::log1p(0.10 + 0.50 * Uniform());
      lasts = 1800 * std::exp(1.5 * Normal());
      if (std::getenv("DP_FIELD_TRACE"))
        std::fprintf(stderr, "interference drive %llu at %lld: %.0f%% worse for %.1f h\n",
                     static_cast<unsigned long long>(seed_), static_cast<long long>(at),
                     100 * std::expm1(interference), lasts / 3600);
    }
    week_ = m_.shared * Normal();  // the week's environment, shared by every test
    // Housekeeping, from a stream of its own so the rest of the week is the
    // same with or without it; it slows the random reads only.
    double housekeeping = 0, hk_lasts = 0;
    if (housekeeping_) {
      Reseed(at, 997);
      if (Uniform() < m_.housekeeping_rate) {
        housekeeping = std::log1p(0.20 + 0.25 * Uniform());
        hk_lasts = 8 * 3600 * std::exp(0.7 * Normal());
      }
    }
    std::vector<std::string> retest;  // tests that asked for one, in run order
    for (const std::string& test : Tests()) {
      Reseed(at, 1 + 2 * TestIndex(test));
      shared_ = week_ + m_.shared / 2 * Normal();
      const double hk = test == "random" ? housekeeping : 0;
      if (RunTest(test, at, factor, interference + hk, false, ev)) retest.push_back(test);
    }
    ev.slowdown_on_scheduled = ev.opened_slowdown > 0;
    pending_.retest = std::move(retest);
    pending_.still = lasts > m_.retest_seconds ? interference : 0;
    pending_.housekeeping = hk_lasts > m_.retest_seconds ? housekeeping : 0;
  }

  Event Finish() {
    // Re-tests: every series of a doubtful test, `retest` seconds later;
    // with them those a peer judgement asked of this drive.
    Event& ev = pending_.ev;
    for (const std::string& test : box_.retests_for[id_])
      if (std::find(pending_.retest.begin(), pending_.retest.end(), test) == pending_.retest.end())
        pending_.retest.push_back(test);
    box_.retests_for[id_].clear();
    for (const std::string& test : pending_.retest) {
      ++ev.retests;
      Reseed(pending_.at + m_.retest_seconds, 2 + 2 * TestIndex(test));
      shared_ = week_ + m_.shared / 2 * Normal();
      RunTest(test, pending_.at + m_.retest_seconds, pending_.factor,
              pending_.still + (test == "random" ? pending_.housekeeping : 0), true, ev);
    }
    return ev;
  }

 private:
  static const std::vector<std::string>& Tests() {
    static const std::vector<std::string> tests = [] {
      std::vector<std::string> t;
      for (const auto& d : kSeries)
        if (std::find(t.begin(), t.end(), d.test) == t.end()) t.push_back(d.test);
      return t;
    }();
    return tests;
  }
  static std::uint64_t TestIndex(const std::string& test) {
    const auto& t = Tests();
    return static_cast<std::uint64_t>(std::find(t.begin(), t.end(), test) - t.begin());
  }
  // Common random numbers: each run draws from a stream of its own, keyed by
  // the drive, the run's time and which run it is (the week's draws, a
  // test's scheduled run, its re-test). Two rules compared on one seed then
  // see the same values week for week, whatever re-tests either asked for,
  // and differ only in the events they decide differently. With one stream
  // per drive a re-test more or less re-rolled the rest of the drive's life,
  // and two rules' event counts differed by chance alone (SplitMix64's
  // finalizer mixes the key; Steele et al. 2014).
  void Reseed(std::int64_t at, std::uint64_t what) {
    std::uint64_t z = seed_ * 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(at) * 0xbf58476d1ce4e5b9ULL ^
                      (what + 1) * 0x94d049bb133111ebULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    rng_.seed(z ^ (z >> 31));
  }
  double Uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  double Normal() { return std::normal_distribution<double>(0, 1)(rng_); }
  double StudentT(double nu) {
    std::chi_squared_distribution<double> chi(nu);
    return Normal() / std::sqrt(chi(rng_) / nu) / std::sqrt(nu / (nu - 2));
  }

  // The run's points as the bench stores them, from the drawn figures.
  std::vector<BenchPoint> Measure(const std::string& test, std::int64_t at,
                                  const std::vector<double>& factor, double interference) {
    std::vector<BenchPoint> points;
    for (int i = 0; i < kN; ++i) {
      if (test != kSeries[i].test) continue;
      const double season = m_.season * std::sin(2 * M_PI * (at - kT0) / kYear + phase_);
      const double worse = shared_ + season + interference;
      const double noise = m_.noise * (m_.gaussian ? Normal() : StudentT(nu_[i]));
      const double sign = Higher(i) ? -1 : 1;
      const double v = kSeries[i].base * factor[i] * std::exp(unit_[i] + noise + sign * worse);
      BenchPoint shape = PointShapeOf(i);
      auto same = std::find_if(points.begin(), points.end(), [&](const BenchPoint& p) {
        return detect::SeriesName(p) == detect::SeriesName(shape);
      });
      BenchPoint& p = same == points.end() ? points.emplace_back(shape) : *same;
      const std::string metric = kSeries[i].metric;
      if (metric == "mb_per_s") p.mb_per_s = v;
      if (metric == "iops") p.iops = v;
      if (metric == "access_ms") p.access_ms = v;
      if (metric == "p99_us") p.latency = LatencySummary{.p99_us = v};
    }
    return points;
  }

  // One run of `test`: its points stored in the box's history as the daemon
  // stores them, then judged by JudgeRun and applied to the alerts; true
  // when it asks for a re-test.
  bool RunTest(const std::string& test, std::int64_t at, const std::vector<double>& factor,
               double interference, bool confirmation, Event& ev) {
    detect::RunToJudge run;
    run.id = box_.history.NewRunId();
    run.test = test;
    run.started_at = at;
    run.drive = {id_, id_, model_};
    run.points = Measure(test, at, factor, interference);
    run.confirmation = confirmation;
    detect::StoredRun stored{run.id, test, at, false, false, {}};
    stored.confirmation = confirmation;  // as the store knows it from the run's trigger
    box_.history.AddRun(id_, stored, run.points);
    auto verdicts = detect::JudgeRun(run, box_.history, cfg_);
    if (!verdicts.ok()) {
      std::fprintf(stderr, "judge: %s\n", verdicts.status().ToString().c_str());
      std::exit(1);
    }
    // The group's peer verdicts this run made due (its cycle complete), as
    // the daemon's evaluator asks after every run.
    auto peers = detect::JudgeDuePeers(test, at + 600, box_.history, cfg_, true, id_);
    if (!peers.ok()) {
      std::fprintf(stderr, "peers: %s\n", peers.status().ToString().c_str());
      std::exit(1);
    }
    detect::Judgement& judged = *verdicts;
    judged.Add(std::move(*peers));
    bool changed_test = false;
    for (int i = 0; i < kN; ++i) changed_test = changed_test || (test == kSeries[i].test && factor[i] != 1);
    for (const Verdict& v : judged.verdicts) {
      if (v.kind == VerdictKind::kPeerOutlier) ++box_.peer_outliers[v.drive_id];
      const int i = SeriesIndexOf(v);
      const ConditionKind kind = ConditionKindOf(v.condition);
      if (kind == ConditionKind::kSlowdown && !confirmation && v.drive_id == id_) {
        if (i >= 0 && factor[i] == 1) Calibrate(i, v);
        if (i >= 0 ? factor[i] != 1 : changed_test) Promise(v, ev);
      }
      if (verdicts_)
        std::fprintf(stderr, "  %s%s%s: %s\n", confirmation ? "(re-test) " : "",
                     std::string(VerdictKindName(v.kind)).c_str(),
                     v.interference_left_out.empty() ? "" : " (runs left out)", v.summary.c_str());
      // With DP_FIELD_DETAILS too, where each verdict's noise came from: its
      // own runs' CV, the waiting runs that widened it, the family pooled.
      if (verdicts_ && std::getenv("DP_FIELD_DETAILS"))
        std::fprintf(stderr, "    own %.2f%% waiting %d pooled %d\n",
                     v.details.value("noise_own_percent", 0.0),
                     v.details.value("noise_waiting_runs", 0), v.details.value("noise_pooled_series", 0));
    }
    // Carried out as the daemon carries it out (detect::ApplyJudgement): the
    // alerts, interference and re-baseline marks, peer marks, re-tests.
    box_.effects.on_verdicts = [&](const std::vector<Verdict>& vs) {
      Apply(vs, at, confirmation, ev);
      return Status::Ok();
    };
    box_.effects.on_rebaseline = [&](const RebaselineMark& mark) {
      for (auto it = box_.active.begin(); it != box_.active.end();)
        it = it->first.first == mark.drive_id && ClosedByRebaseline(it->second, mark.test)
                 ? box_.active.erase(it)
                 : std::next(it);
    };
    if (Status s = detect::ApplyJudgement(judged, box_.effects); !s.ok()) {
      std::fprintf(stderr, "apply: %s\n", s.ToString().c_str());
      std::exit(1);
    }
    if (std::getenv("DP_FIELD_TRACE")) {
      for (const detect::InterferenceMark& m : judged.interference)
        std::fprintf(stderr, "interference recognised drive %llu run %lld at %lld by %s\n",
                     static_cast<unsigned long long>(seed_), static_cast<long long>(m.run_id),
                     static_cast<long long>(at), m.found_by.c_str());
      for (const RebaselineMark& m : judged.rebaselines)
        std::fprintf(stderr, "absorb drive %llu: %s at %lld from %lld: %s\n",
                     static_cast<unsigned long long>(seed_), m.drive_id.c_str(),
                     static_cast<long long>(at), static_cast<long long>(m.at), m.reason.c_str());
    }
    if (!judged.rebaselines.empty()) ++ev.absorbed;
    // This drive's re-test of this test, or another drive's that a peer
    // judgement asked for (run with that drive's re-tests).
    bool asks = false;
    for (const detect::RetestRequest& r : box_.effects.TakeRetests()) {
      if (r.drive_id == id_ && r.test == test) asks = true;
      else box_.retests_for[r.drive_id].push_back(r.test);
    }
    return asks;
  }

  // How often a healthy scheduled run fell outside its single-run band
  // (HealthyFigures::band_judged / band_outside).
  void Calibrate(int i, const Verdict& v) {
    if (v.runs.empty() || !(v.kind == VerdictKind::kClear ||
                            v.kind == VerdictKind::kNeedsConfirmation ||
                            v.kind == VerdictKind::kSlowdown))
      return;
    const int kind = IsP99(i) ? 2 : std::string(kSeries[i].metric) == "access_ms" ? 1 : 0;
    const int n = v.baseline_runs.value_or(0);
    const int age = n <= 8 ? 0 : n <= 15 ? 1 : n <= 30 ? 2 : n < 100 ? 3 : 4;
    ++band_judged_[kind][age];
    if (v.runs.back().outside) ++band_outside_[kind][age];
  }

  // What a changed series' verdict promised about the probe change.
  static void Promise(const Verdict& v, Event& ev) {
    if (!v.details.contains("detectable") || !v.details.contains("noise_percent")) return;
    const int runs = v.details["detectable"].value("runs", 0);
    const double noise = v.details["noise_percent"].get<double>();
    if (runs > 0 && (ev.promised == 0 || runs < ev.promised)) ev.promised = runs;
    if (ev.least_noise == 0 || noise < ev.least_noise) ev.least_noise = noise;
  }

  // The run's verdicts through alert/alert_events.h's ApplyVerdicts, as the
  // daemon's AlertService applies them: alerts opened and notified counted
  // by kind.
  void Apply(const std::vector<Verdict>& verdicts, std::int64_t at, bool confirmation,
             Event& ev) {
    AlertLookup lookup;
    lookup.find = [this](const std::string& drive, const std::string& condition)
        -> Result<std::optional<Alert>> {
      auto it = box_.active.find({drive, condition});
      if (it == box_.active.end()) return std::optional<Alert>();
      return std::optional<Alert>(it->second);
    };
    auto apply = [&](AlertDecision d) {
      if (d.write == AlertDecision::Write::kNothing) return Status::Ok();
      const auto key = std::make_pair(d.alert.drive_id, d.alert.condition);
      if (d.alert.state == "resolved") box_.active.erase(key);
      else box_.active[key] = d.alert;
      const ConditionKind kind = ConditionKindOf(d.alert.condition);
      if (d.write == AlertDecision::Write::kInsert) {
        if (kind == ConditionKind::kSlowdown) ++ev.opened_slowdown;
        if (kind == ConditionKind::kTrend) ++ev.opened_trend;
        if (kind == ConditionKind::kPeer) ++ev.opened_peer;
        if (kind == ConditionKind::kEnvironment) ++ev.opened_environment;
      }
      if (d.notify == NotifyKind::kOpened && kind == ConditionKind::kSlowdown)
        ++box_.notified_slowdown[d.alert.drive_id];
      if (d.notify == NotifyKind::kOpened) {
        ++ev.notified;
        if (kind == ConditionKind::kSlowdown) ++ev.notified_slowdown;
        if (kind == ConditionKind::kEnvironment) ++ev.notified_environment;
      }
      if (std::getenv("DP_FIELD_TRACE") &&
          (d.write == AlertDecision::Write::kInsert || d.notify == NotifyKind::kOpened))
        std::fprintf(stderr, "%s drive %llu %s%s at %lld: %s\n",
                     d.notify == NotifyKind::kOpened ? "notify" : "open",
                     static_cast<unsigned long long>(seed_), confirmation ? "(re-test) " : "",
                     d.alert.condition.c_str(), static_cast<long long>(at),
                     d.alert.summary.c_str());
      return Status::Ok();
    };
    (void)ApplyVerdicts(verdicts, lookup, FromUnixSeconds(at), AlertPolicy{}, apply);
  }

  struct Pending {
    std::int64_t at = 0;
    std::vector<double> factor;
    std::vector<std::string> retest;
    double still = 0;  // interference still in force at the re-tests
    double housekeeping = 0;  // and housekeeping (random reads)
    Event ev;
  };
  Pending pending_;
  const Model& m_;
  const DetectionConfig& cfg_;
  std::mt19937_64 rng_;
  double nu_[kN] = {};
  double unit_[kN] = {};  // the unit's own level of each figure (log units)
  double phase_ = 0, shared_ = 0, week_ = 0;
  std::uint64_t seed_ = 0;  // names the drive in a trace
  Box& box_;
  std::string id_;
  std::string model_;
  bool housekeeping_ = false;  // a drive that does hours-long housekeeping
 public:
  bool verdicts_ = false;  // print every verdict (DP_FIELD_VERDICTS)
  // HealthyFigures::band_judged / band_outside of this drive's runs.
  long band_judged_[HealthyFigures::kKinds][HealthyFigures::kAges] = {};
  long band_outside_[HealthyFigures::kKinds][HealthyFigures::kAges] = {};
};

}  // namespace

HealthyFigures RunHealthy(const Model& m, const DetectionConfig& cfg, int drives, int years,
                          std::uint64_t seed, int threads) {
  // Drives in vdevs of m.vdev: each week every drive runs its tests, 30
  // minutes apart, then each runs its re-tests (Drive::Begin, Finish).
  // A box holds m.box_vdevs vdevs of m.vdev drives (one history, one room,
  // one box step); its drives' peer groups are formed as the daemon forms
  // them (PeerGroupOf).
  const int per_vdev = std::max(1, m.vdev);
  const int per_box = per_vdev * std::max(1, m.box_vdevs);
  const int vdevs = (drives + per_box - 1) / per_box;
  std::atomic<int> next{0};
  std::vector<HealthyFigures> part(threads);
  auto work = [&](int t) {
    // DP_FIELD_DRIVE=d: only that healthy drive's vdev (with DP_FIELD_TRACE,
    // its story; with DP_FIELD_VERDICTS, every verdict).
    const char* only = std::getenv("DP_FIELD_DRIVE");
    for (int g; (g = next++) < vdevs;) {
      const int first = g * per_box, count = std::min(per_box, drives - first);
      if (only && std::atoi(only) / per_box != g) continue;
      // One box, one room: the vdev's drives share the yearly swing.
      std::optional<double> phase;
      std::mt19937_64 room(seed * 7'919 + g);
      if (count > 1) phase = std::uniform_real_distribution<double>(0, 2 * M_PI)(room);
      Box box;
      std::vector<std::unique_ptr<Drive>> vdev;
      std::vector<std::string> ids;
      for (int j = 0; j < count; ++j) {
        vdev.push_back(std::make_unique<Drive>(m, cfg, seed * 1'000'003 + first + j, box,
                                               "d" + std::to_string(j), phase));
        ids.push_back(vdev.back()->id());
      }
      // The drives of a vdev are each other's siblings (EvaluatePeers,
      // EvaluateEnvironment), as the daemon finds them in the pool.
      for (int v = 0; v * per_vdev < count && count > 1; ++v) {
        std::vector<std::string> members(ids.begin() + v * per_vdev,
                                         ids.begin() + std::min(count, (v + 1) * per_vdev));
        if (members.size() > 1)
          box.history.AddVdev("tank/vdev-" + std::to_string(g) + "-" + std::to_string(v), members);
      }
      // With DP_FIELD_VERDICTS too, every verdict of that vdev's runs.
      for (auto& d : vdev) d->verdicts_ = only && std::getenv("DP_FIELD_VERDICTS");
      std::vector<double> ones(kN, 1.0), stepped(kN, 1.0);
      const int runs = years * 52;
      // The box-wide step: every series of every drive, from a week in the
      // second year on (after the baselines have formed), for good.
      int step_at = runs;
      if (m.box_step > 0 && runs > 60) {
        step_at = 52 + static_cast<int>(room() % static_cast<std::uint64_t>(runs - 60));
        for (int i = 0; i < kN; ++i)
          stepped[i] = Higher(i) ? 1 - m.box_step : 1 / (1 - m.box_step);
        ++part[t].box_events;
      }
      std::vector<int> alerts(count, 0);
      for (int r = 0; r < runs; ++r) {
        const std::vector<double>& level = r >= step_at ? stepped : ones;
        for (int j = 0; j < count; ++j) vdev[j]->Begin(kT0 + r * kWeek + j * 1800, level);
        for (int j = 0; j < count; ++j) {
          auto ev = vdev[j]->Finish();
          part[t].slowdown += ev.opened_slowdown;
          part[t].trend += ev.opened_trend;
          part[t].peer += ev.opened_peer;
          part[t].environment += ev.opened_environment;
          part[t].notified += ev.notified;
          part[t].environment_notices += ev.notified_environment;
          part[t].absorbed += ev.absorbed;
          part[t].retests += ev.retests;
          const int opened = ev.Opened();
          alerts[j] += opened;
          if (opened) ++part[t].alert_weeks;
        }
      }
      // Scheduled runs of a test: each drive runs every test each week.
      part[t].scheduled_runs += static_cast<long>(runs) * count * Drive::TestCount();
      for (const auto& d : vdev)
        for (int k = 0; k < HealthyFigures::kKinds; ++k)
          for (int a = 0; a < HealthyFigures::kAges; ++a) {
            part[t].band_judged[k][a] += d->band_judged_[k][a];
            part[t].band_outside[k][a] += d->band_outside_[k][a];
          }
      for (int a : alerts)
        if (a) ++part[t].drives_with_alert;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
  for (auto& th : pool) th.join();
  HealthyFigures f;
  f.drive_years = static_cast<double>(drives) * years;
  for (auto& p : part) {
    f.slowdown += p.slowdown;
    f.trend += p.trend;
    f.peer += p.peer;
    f.environment += p.environment;
    f.retests += p.retests;
    f.notified += p.notified;
    f.environment_notices += p.environment_notices;
    f.box_events += p.box_events;
    f.absorbed += p.absorbed;
    f.scheduled_runs += p.scheduled_runs;
    f.drives_with_alert += p.drives_with_alert;
    f.alert_weeks += p.alert_weeks;
    for (int k = 0; k < HealthyFigures::kKinds; ++k)
      for (int a = 0; a < HealthyFigures::kAges; ++a) {
        f.band_judged[k][a] += p.band_judged[k][a];
        f.band_outside[k][a] += p.band_outside[k][a];
      }
  }
  return f;
}

DelayFigures RunDelay(const Model& m, const DetectionConfig& cfg, Change change, int trials,
                      std::uint64_t seed, int threads) {
  // DP_FIELD_SEED=s: only the scenario of that seed (DP_FIELD_DELAY names it).
  if (const char* only_seed = std::getenv("DP_FIELD_SEED");
      only_seed && std::strtoull(only_seed, nullptr, 10) != seed)
    return DelayFigures{};
  std::atomic<int> next{0};
  std::vector<DelayFigures> part(threads);
  auto work = [&](int t) {
    // DP_FIELD_TRIAL=k: only that trial (with DP_FIELD_VERDICTS, every
    // verdict of its runs from the change on).
    const char* only = std::getenv("DP_FIELD_TRIAL");
    for (int k; (k = next++) < trials;) {
      if (only && std::atoi(only) != k) continue;
      std::mt19937_64 rng(seed * 7'777'777 + k);
      Box box;
      Drive drive(m, cfg, seed * 1'000'003 + k + 500'000, box);
      // Weeks 8-47 for any baseline_runs up to 8, so that rules with another
      // baseline size are compared on the same changes (the default's
      // 5 + 3 + 40 draws); for a larger one from its first judged run.
      const int change_at = std::max(8, cfg.baseline_runs) + static_cast<int>(rng() % 40);
      std::vector<double> healthy(kN, 1.0), sick(kN, 1.0);
      for (int i = 0; i < kN; ++i) {
        if (change == Change::kDrop15 && IsThroughput(i)) sick[i] = 0.85;
        if (change == Change::kP99Rise && IsP99(i)) sick[i] = 1.5;
        if (change == Change::kSeekRise25 && std::string(kSeries[i].metric) == "access_ms")
          sick[i] = 1.25;
      }
      int runs_since = 0, promised = 0;
      double least_noise = 0;
      bool found = false, notified = false, notified_in_time = false;
      // Twenty weeks, or as long as the runs the verdict promised (a noisy
      // series may promise more runs than twenty weeks hold).
      for (int r = 0;
           (!found || (!notified && r <= change_at + 1)) &&
           (r < change_at + 20 || (r < change_at + 60 && runs_since < promised));
           ++r) {
        const bool degraded = r >= change_at;
        drive.verdicts_ = degraded && only && std::getenv("DP_FIELD_VERDICTS");
        auto ev = drive.Scheduled(kT0 + r * kWeek, degraded ? sick : healthy);
        if (!degraded) {
          if (ev.opened_slowdown + ev.opened_trend) ++part[t].early_alerts;
          continue;
        }
        if (!notified && ev.notified_slowdown > 0) {
          notified = true;
          if (r <= change_at + 1) {
            ++part[t].notified_within2_weeks;
            notified_in_time = true;
          }
        }
        if (r == change_at) {
          promised = ev.promised;
          least_noise = ev.least_noise;
        }
        // The scheduled run, then its re-test when one was asked for.
        if (!found) {
          runs_since += 1;
          if (!ev.slowdown_on_scheduled && ev.retests > 0) runs_since += 1;
        }
        if (!found && ev.opened_slowdown) {
          if (std::getenv("DP_FIELD_DELAY"))
            std::fprintf(stderr,
                         "seed %llu trial %d change %d found after %d (promised %d, least CV "
                         "%.1f%%)\n",
                         static_cast<unsigned long long>(seed), k, change_at, runs_since,
                         promised, least_noise);
          found = true;
          const int at = runs_since;
          if (at <= 2) ++part[t].within2;
          if (at <= 3) ++part[t].within3;
          if (at <= 4) ++part[t].within4;
          part[t].runs_sum += at;
          ++part[t].detected;
        }
      }
      ++part[t].trials;
      if (!notified_in_time && std::getenv("DP_FIELD_DELAY"))
        std::fprintf(stderr, "seed %llu trial %d change %d not notified within 2 weeks\n",
                     static_cast<unsigned long long>(seed), k, change_at);
      if (!found && std::getenv("DP_FIELD_DELAY"))
        std::fprintf(stderr,
                     "seed %llu trial %d change %d not found after %d (promised %d, least CV "
                     "%.1f%%)\n",
                     static_cast<unsigned long long>(seed), k, change_at, runs_since, promised,
                     least_noise);
      const int at = found ? runs_since : 1 << 20;
      if (promised > 0) {
        ++part[t].promised;
        if (at <= promised) ++part[t].kept;
      }
      if (promised == 2) {
        ++part[t].promised2;
        if (at <= 2) ++part[t].kept2;
      }
      if (least_noise > 0 && least_noise <= 3) {
        ++part[t].low_noise;
        if (at <= 2) ++part[t].low_noise2;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
  for (auto& th : pool) th.join();
  DelayFigures f;
  for (auto& p : part) {
    f.trials += p.trials;
    f.within2 += p.within2;
    f.within3 += p.within3;
    f.within4 += p.within4;
    f.detected += p.detected;
    f.runs_sum += p.runs_sum;
    f.early_alerts += p.early_alerts;
    f.notified_within2_weeks += p.notified_within2_weeks;
    f.promised += p.promised;
    f.kept += p.kept;
    f.promised2 += p.promised2;
    f.kept2 += p.kept2;
    f.low_noise += p.low_noise;
    f.low_noise2 += p.low_noise2;
  }
  return f;
}

}  // namespace dp::field

namespace dp::field {

PeerFigures RunPeerSlow(const Model& m, const DetectionConfig& cfg, const PeerLayout& layout,
                        int position, bool from_start, int trials, int weeks, std::uint64_t seed,
                        int threads) {
  std::atomic<int> next{0};
  std::vector<PeerFigures> part(threads);
  auto work = [&](int t) {
    for (int k; (k = next++) < trials;) {
      std::mt19937_64 rng(seed * 7'777'777 + k);
      Box box;
      std::vector<std::unique_ptr<Drive>> drives;
      std::vector<std::vector<std::string>> vdev_ids(layout.vdevs.size());
      std::optional<double> phase = std::uniform_real_distribution<double>(0, 2 * M_PI)(rng);
      int n = 0;
      for (std::size_t g = 0; g < layout.vdevs.size(); ++g)
        for (int j = 0; j < layout.vdevs[g]; ++j, ++n) {
          // Mixed: the vdev's members alternate between two models, so no
          // drive has two others of its model anywhere on the box.
          const std::string model = layout.mixed && j % 2 ? "field-model-hdd-b" : "field-model-hdd";
          drives.push_back(std::make_unique<Drive>(m, cfg, seed * 1'000'003 + k * 64 + n, box,
                                                   "d" + std::to_string(n), phase, model));
          vdev_ids[g].push_back(drives.back()->id());
        }
      for (std::size_t g = 0; g < layout.vdevs.size(); ++g)
        box.history.AddVdev("tank/vdev-" + std::to_string(g), vdev_ids[g]);
      // With DP_FIELD_VERDICTS, every verdict of the trial's runs.
      for (auto& d : drives) d->verdicts_ = std::getenv("DP_FIELD_VERDICTS") != nullptr;
      // The slow drive's place in the week's run order.
      const int count = static_cast<int>(drives.size());
      const int slow = position == 0 ? 0 : position == 1 ? count / 2 : count - 1;
      const int change = from_start ? 0 : 10 + static_cast<int>(rng() % 10);
      std::vector<double> ones(kN, 1.0), sick(kN, 1.0);
      for (int i = 0; i < kN; ++i) sick[i] = Higher(i) ? m.peer_slow_rate : m.peer_slow_time;
      int found_at = -1;
      for (int r = 0; r < change + weeks; ++r) {
        for (int j = 0; j < count; ++j)
          drives[j]->Begin(kT0 + r * kWeek + j * 1800, j == slow && r >= change ? sick : ones);
        for (int j = 0; j < count; ++j) drives[j]->Finish();
        if (found_at < 0 && r >= change && box.notified_slowdown[drives[slow]->id()] > 0 &&
            box.peer_outliers[drives[slow]->id()] > 0)
          found_at = r - change + 1;
      }
      ++part[t].trials;
      if (std::getenv("DP_FIELD_TRACE"))
        std::fprintf(stderr, "trial %d position %d slow %s change %d found %d\n", k, position,
                     drives[slow]->id().c_str(), change, found_at);
      if (found_at > 0) {
        ++part[t].notified;
        part[t].cycles_sum += found_at;
      }
      for (int j = 0; j < count; ++j) {
        if (j == slow) continue;
        part[t].healthy_drive_years += (change + weeks) / 52.0;
        part[t].false_notified += box.notified_slowdown[drives[j]->id()];
        part[t].false_peer += box.peer_outliers[drives[j]->id()] > 0 ? 1 : 0;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
  for (auto& th : pool) th.join();
  PeerFigures f;
  for (const auto& p : part) {
    f.trials += p.trials;
    f.notified += p.notified;
    f.cycles_sum += p.cycles_sum;
    f.healthy_drive_years += p.healthy_drive_years;
    f.false_notified += p.false_notified;
    f.false_peer += p.false_peer;
  }
  return f;
}

}  // namespace dp::field
