#include "bench/simulated_engine.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <map>

#include "bench/bench_report_format.h"
#include "bench/bench_runner.h"

namespace dp {
namespace {

BenchOptions Options(std::vector<BenchTest> tests, double seconds = 10) {
  BenchOptions o;
  o.tests = std::move(tests);
  o.seconds = seconds;
  o.idle_check_seconds = 0;
  return o;
}

const BenchPoint* Find(const BenchReport& r, const std::string& test, const std::string& label) {
  for (const auto& p : r.results)
    if (p.test == test && (p.zone.value_or("") == label || p.stroke.value_or("") == label ||
                           p.variant.value_or("") == label || label.empty()))
      return &p;
  return nullptr;
}

TEST(SimulatedEngineTest, ZoneProfileFollowsTheModel) {
  FakeClock clock;
  SimulatedDrive d = SimulatedDrive::Hdd();
  SimulatedTarget t("sim0", d, clock);
  BenchOptions o = Options({BenchTest::kZones});
  o.zone_sweep_points = 5;
  auto r = RunReadTests(t, o, nullptr, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->partial) << r->error;
  EXPECT_EQ(r->engine, "simulated");
  const BenchPoint* outer = Find(*r, "zones", "outer");
  const BenchPoint* middle = Find(*r, "zones", "middle");
  const BenchPoint* inner = Find(*r, "zones", "inner");
  ASSERT_TRUE(outer && middle && inner);
  // Sequential reads run at the media rate of their zone (within jitter/overhead).
  EXPECT_NEAR(outer->mb_per_s, d.TransferRateAt(0), 0.05 * d.TransferRateAt(0));
  EXPECT_NEAR(middle->mb_per_s, d.TransferRateAt(d.size_bytes / 2),
              0.05 * d.TransferRateAt(d.size_bytes / 2));
  EXPECT_NEAR(inner->mb_per_s, d.inner_mb_per_s, 0.05 * d.inner_mb_per_s);
  EXPECT_GT(outer->mb_per_s, middle->mb_per_s);
  EXPECT_GT(middle->mb_per_s, inner->mb_per_s);
  // The 5-point sweep falls monotonically from outer to inner.
  double last = 1e9;
  int sweep = 0;
  for (const auto& p : r->results) {
    if (p.zone && std::isdigit(static_cast<unsigned char>((*p.zone)[0]))) {
      EXPECT_LT(p.mb_per_s, last) << *p.zone;
      last = p.mb_per_s;
      ++sweep;
    }
  }
  EXPECT_EQ(sweep, 5);
}

TEST(SimulatedEngineTest, SeekProfileFollowsTheModel) {
  FakeClock clock;
  SimulatedDrive d = SimulatedDrive::Hdd();
  SimulatedTarget t("sim0", d, clock);
  auto r = RunReadTests(t, Options({BenchTest::kSeek}), nullptr, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::map<std::string, double> ms;
  for (const auto& p : r->results) {
    ASSERT_TRUE(p.stroke && p.access_ms) << p.test;
    ms[*p.stroke] = *p.access_ms;
  }
  ASSERT_EQ(ms.size(), 5u);
  const double rot = d.MeanRotationMs();
  EXPECT_NEAR(ms["full"], d.SeekMs(d.size_bytes * 97 / 100) + rot, 0.15 * (d.full_stroke_ms + rot));
  EXPECT_NEAR(ms["half"], d.SeekMs(d.size_bytes / 2) + rot, 0.15 * (d.full_stroke_ms + rot));
  EXPECT_GT(ms["full"], ms["half"]);
  EXPECT_GT(ms["half"], ms["quarter"]);
  EXPECT_GT(ms["quarter"], ms["short_forward"]);
  EXPECT_LT(ms["short_backward"], d.track_to_track_ms + 2 * rot);
}

TEST(SimulatedEngineTest, RandomIopsGrowWithQueueDepthOnlyWithNcq) {
  for (bool ncq : {true, false}) {
    FakeClock clock;
    SimulatedDrive d = SimulatedDrive::Hdd();
    d.ncq = ncq;
    SimulatedTarget t("sim0", d, clock);
    auto r = RunReadTests(t, Options({BenchTest::kRandom}), nullptr, nullptr);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->results.size(), 2u);
    const BenchPoint& q1 = r->results[0];
    const BenchPoint& q32 = r->results[1];
    EXPECT_EQ(q32.queue_depth, 32u);
    // QD1 random 4K on a 7200 rpm disk: ~1/(avg seek + half turn) ~ 70-90 IOPS.
    EXPECT_GT(q1.iops, 50);
    EXPECT_LT(q1.iops, 120);
    if (ncq) {
      EXPECT_GT(q32.iops, 1.5 * q1.iops);
    } else {
      EXPECT_NEAR(q32.iops, q1.iops, 0.15 * q1.iops);
    }
    ASSERT_TRUE(q1.latency);
    EXPECT_LE(q1.latency->p50_us, q1.latency->p99_us);
    EXPECT_FALSE(q1.histogram.empty());
  }
}

TEST(SimulatedEngineTest, QueueDepthIsHonoured) {
  FakeClock clock;
  SimulatedEngine e(SimulatedDrive::Hdd(), 4, clock);
  std::byte buf[4096];
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE(e.Submit({static_cast<std::uint64_t>(i) << 30, 4096, buf, 0}).ok());
  EXPECT_EQ(e.Submit({0, 4096, buf, 0}).code(), StatusCode::kResourceExhausted);
  std::vector<IoCompletion> out;
  ASSERT_TRUE(e.Reap(4, std::chrono::seconds(1), out).ok());
  EXPECT_EQ(out.size(), 4u);
  EXPECT_EQ(e.max_concurrency_seen(), 4u);
  EXPECT_EQ(e.in_flight(), 0u);
}

TEST(SimulatedEngineTest, ErrorRegionEndsTheRunPartial) {
  FakeClock clock;
  SimulatedDrive d = SimulatedDrive::Hdd();
  // The middle zone's region starts a little before size/2: make reads there fail.
  d.error_regions.push_back({d.size_bytes / 2 - 4'000'000'000ULL, d.size_bytes / 2});
  SimulatedTarget t("sim0", d, clock);
  auto r = RunReadTests(t, Options({BenchTest::kZones, BenchTest::kRandom}), nullptr, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->partial);
  EXPECT_NE(r->error.find("Input/output error"), std::string::npos) << r->error;
  ASSERT_EQ(r->results.size(), 2u);  // outer whole, middle partial, nothing after
  EXPECT_FALSE(r->results[0].partial);
  EXPECT_TRUE(r->results[1].partial);
  EXPECT_EQ(r->results[1].zone, "middle");
  // The JSON says so too.
  auto j = BenchReportToJson(*r);
  EXPECT_TRUE(j["partial"].get<bool>());
  EXPECT_TRUE(j["results"][1]["partial"].get<bool>());
}

TEST(SimulatedEngineTest, EioSurfacesFromTheEngine) {
  FakeClock clock;
  SimulatedDrive d;
  d.error_regions.push_back({1 << 20, 2 << 20});
  SimulatedEngine e(d, 1, clock);
  std::byte buf[4096];
  ASSERT_TRUE(e.Submit({(1 << 20) + 4096, 4096, buf, 9}).ok());
  std::vector<IoCompletion> out;
  ASSERT_TRUE(e.Reap(1, std::chrono::seconds(1), out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tag, 9u);
  EXPECT_EQ(out[0].result, -EIO);
  EXPECT_GE(out[0].latency, std::chrono::milliseconds(500));
}

TEST(SimulatedEngineTest, SlowRegionAgeAndScaleSlowTheDriveDown) {
  auto seq_rate = [](const SimulatedDrive& d) {
    FakeClock clock;
    SimulatedTarget t("sim0", d, clock);
    auto r = RunReadTests(t, Options({BenchTest::kSeq}, 4), nullptr, nullptr);
    EXPECT_TRUE(r.ok());
    return r->results.at(0).mb_per_s;
  };
  SimulatedDrive d = SimulatedDrive::Hdd();
  const double base = seq_rate(d);
  SimulatedDrive scaled = d;
  scaled.throughput_scale = 0.5;
  EXPECT_NEAR(seq_rate(scaled), base / 2, base * 0.03);
  SimulatedDrive aging = d;
  aging.decay_per_age = 0.01;
  aging.AdvanceAge(10);
  EXPECT_NEAR(seq_rate(aging), base * std::pow(0.99, 10), base * 0.03);
  SimulatedDrive slow = d;
  slow.slow_regions.push_back({0, 1ULL << 40, 2.0, 0});
  EXPECT_NEAR(seq_rate(slow), base / 2, base * 0.05);
}

TEST(SimulatedEngineTest, SameSeedSameFigures) {
  auto run = [] {
    FakeClock clock;
    SimulatedTarget t("sim0", SimulatedDrive::Hdd(), clock);
    auto r = RunReadTests(t, Options({BenchTest::kRandom, BenchTest::kSeek}, 2), nullptr, nullptr);
    return BenchReportToJson(*r).dump();
  };
  EXPECT_EQ(run(), run());
}

TEST(SimulatedEngineTest, CancelEndsPartialAndProgressReachesOne) {
  FakeClock clock;
  SimulatedTarget t("sim0", SimulatedDrive::Ssd(), clock);
  std::vector<double> seen;
  auto r = RunReadTests(t, Options({BenchTest::kSeq, BenchTest::kRandom}, 2), nullptr,
                        [&](double f) { seen.push_back(f); });
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(seen.empty());
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i] + 1e-9, seen[i - 1]);

  std::atomic<bool> cancel{false};
  auto c =
      RunReadTests(t, Options({BenchTest::kSeq, BenchTest::kRandom}, 2), &cancel, [&](double f) {
        if (f > 0.3) cancel = true;
      });
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->partial);
  EXPECT_EQ(c->error, "cancelled");
  ASSERT_FALSE(c->results.empty());
  EXPECT_TRUE(c->results.back().partial);
}

TEST(SimulatedEngineTest, ParallelReportsAloneTogetherAndSum) {
  FakeClock c1, c2;
  SimulatedTarget a("simA", SimulatedDrive::Hdd(), c1), b("simB", SimulatedDrive::Ssd(), c2);
  BenchReport ra, rb;
  ASSERT_TRUE(
      RunParallel({&a, &b}, Options({BenchTest::kParallel}, 4), {&ra, &rb}, nullptr, nullptr).ok());
  const BenchPoint* alone = Find(ra, "parallel", "alone");
  const BenchPoint* together = Find(ra, "parallel", "together");
  const BenchPoint* sum = Find(rb, "parallel", "sum");
  ASSERT_TRUE(alone && together && sum);
  EXPECT_NEAR(
      sum->mb_per_s,
      Find(ra, "parallel", "together")->mb_per_s + Find(rb, "parallel", "together")->mb_per_s,
      1e-6);
  EXPECT_GT(sum->mb_per_s, alone->mb_per_s);
  BenchReport only;
  EXPECT_EQ(RunParallel({&a}, Options({BenchTest::kParallel}), {&only}, nullptr, nullptr).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace dp
