// Months of weekly runs on a FakeClock against a SimulatedEngine drive: a
// drive that starts decaying at a known time is alerted after it starts and
// not before; a steady drive never is.
#include <gtest/gtest.h>

#include <random>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "bench/simulated_engine.h"
#include "bench/workload_runner.h"
#include "detect/series.h"

namespace dp::detect {
namespace {

constexpr auto kWeek = std::chrono::hours(24 * 7);

struct Outcome {
  int first_alert_week = -1;
  std::string condition;
  std::string summary;
  int alerts = 0;
};

// Weekly 1 MiB sequential reads in the outer zone; from `decay_from_week` on
// the drive loses `percent_per_month`. 1.5% run-to-run wobble on top.
Outcome Simulate(int weeks, int decay_from_week, double percent_per_month, unsigned seed) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  AlertService alerts(repo, nullptr, clock, AlertServiceOptions{});
  DetectionConfig cfg;
  std::mt19937 rng(seed);
  std::normal_distribution<double> wobble(0, 0.015);
  SimulatedDrive drive = SimulatedDrive::Hdd();
  drive.decay_per_age = percent_per_month / 100.0;
  std::vector<Sample> history;
  Outcome out;
  for (int week = 0; week < weeks; ++week) {
    if (week > decay_from_week) drive.AdvanceAge(7 / 30.44);
    drive.seed = week + 1;
    drive.throughput_scale = 1 + wobble(rng);
    Workload w;
    w.test = "seq";
    w.zone = "outer";
    w.block_size = 1 << 20;
    w.queue_depth = 1;
    w.region_end = 2ULL << 30;
    w.seconds = 0.5;
    w.warmup_seconds = 0.05;
    FakeClock engine_clock;
    SimulatedEngine engine(drive, 1, engine_clock);
    auto r = RunWorkload(engine, w, 512, 4096, engine_clock, nullptr, nullptr);
    EXPECT_TRUE(r.ok());
    if (!r.ok()) return out;
    history.push_back(Sample{week + 1, ToUnixSeconds(clock.Now()), r->mb_per_s()});
    SeriesKey key{"wwn-sim", "sim0", "seq", "outer qd1-1m", "mb_per_s"};
    for (const Verdict& v : EvaluateSeries(key, history, cfg)) {
      auto applied = alerts.OnVerdict(v);
      EXPECT_TRUE(applied.ok());
      if (v.Firing() && out.first_alert_week < 0) {
        out.first_alert_week = week;
        out.condition = v.condition;
        out.summary = v.summary;
      }
    }
    clock.Advance(kWeek);
  }
  out.alerts = static_cast<int>(repo.All().size());
  return out;
}

TEST(SimulatedMonths, SteadyDriveNeverAlerts) {
  for (unsigned seed : {1u, 2u, 3u}) {
    Outcome o = Simulate(52, 1000, 0, seed);
    EXPECT_EQ(o.alerts, 0) << "seed " << seed << ": " << o.summary;
  }
}

TEST(SimulatedMonths, DecayingDriveIsAlertedAfterItStartsAndNotBefore) {
  for (unsigned seed : {1u, 2u, 3u}) {
    // Healthy for half a year, then 4%/month slower.
    Outcome o = Simulate(52, 26, 4.0, seed);
    ASSERT_GE(o.first_alert_week, 0) << "seed " << seed << ": never alerted";
    EXPECT_GT(o.first_alert_week, 26)
        << "seed " << seed << ": alerted before the decay: " << o.summary;
    // 8% below baseline (the band floor) is reached ~2 months in; allow 4.
    EXPECT_LE(o.first_alert_week, 26 + 17) << "seed " << seed << ": " << o.summary;
    EXPECT_TRUE(o.condition.rfind("slowdown:", 0) == 0 || o.condition.rfind("trend:", 0) == 0)
        << o.condition;
  }
}

}  // namespace
}  // namespace dp::detect
