// The judge's seam: detect::JudgeRun over the SQLite store
// (StoreSeriesHistory, what the daemon runs) and over MemorySeriesHistory
// (what the field model in benchmarks/ measures) gives the same verdicts,
// word for word, for the same runs. Months of weekly runs of a vdev of three
// drives (zones, seek, random, seq), re-tests after doubts, a re-baseline
// mark, one drive's drop and a drop the whole vdev shares: every run is
// judged through both and the two lists compared.
#include <gtest/gtest.h>

#include <random>

#include "detect/judge.h"
#include "detect/memory_series_history.h"
#include "model/condition.h"
#include "runs/store_series_history.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

constexpr int kDrives = 3;
constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;

class JudgeSeamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    Pool pool;
    pool.name = "tank";
    Vdev vdev;
    vdev.name = "raidz1-0";
    vdev.type = "raidz1";
    vdev.role = "data";
    std::vector<std::string> ids;
    for (int i = 0; i < kDrives; ++i) {
      Drive d;
      d.id = "wwn-" + std::to_string(i);
      d.name = "sd" + std::string(1, static_cast<char>('a' + i));
      d.dev_path = "/dev/" + d.name;
      d.model = "HDD-8T";
      ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
      PoolMember m;
      m.path = d.name;
      m.state = "ONLINE";
      m.drive_id = d.id;
      vdev.members.push_back(m);
      drives_.push_back(DriveRefOf(d));
      memory_.AddDrive(drives_.back());
      ids.push_back(d.id);
    }
    pool.vdevs.push_back(vdev);
    ASSERT_TRUE(store_->RecordPools({pool}, 1000).ok());
    memory_.AddVdev("tank/raidz1-0", ids);
  }

  // The points of one run of `test`, each figure `level` times its usual
  // value (worse for a time when level < 1) with 2% noise.
  std::vector<BenchPoint> Points(const std::string& test, double level) {
    auto noisy = [&](double v) { return v * std::exp(0.02 * noise_(rng_)); };
    std::vector<BenchPoint> out;
    auto point = [&](BenchPoint p) { out.push_back(std::move(p)); };
    if (test == "zones")
      for (auto [zone, mb] : {std::pair<const char*, double>{"outer", 250}, {"middle", 200},
                              {"inner", 120}}) {
        BenchPoint p;
        p.test = test;
        p.zone = zone;
        p.block_size = 1 << 20;
        p.queue_depth = 1;
        p.mb_per_s = noisy(mb * level);
        point(p);
      }
    if (test == "seek")
      for (auto [stroke, ms] : {std::pair<const char*, double>{"full", 18}, {"half", 13},
                                {"quarter", 10}}) {
        BenchPoint p;
        p.test = test;
        p.stroke = stroke;
        p.block_size = 4096;
        p.queue_depth = 1;
        p.access_ms = noisy(ms / level);
        point(p);
      }
    if (test == "random")
      for (auto [qd, iops] : {std::pair<std::uint32_t, double>{1, 80}, {32, 200}}) {
        BenchPoint p;
        p.test = test;
        p.block_size = 4096;
        p.queue_depth = qd;
        p.iops = noisy(iops * level);
        p.latency = LatencySummary{.p99_us = noisy(25000 * qd / level)};
        point(p);
      }
    if (test == "seq") {
      BenchPoint p;
      p.test = test;
      p.block_size = 1 << 20;
      p.queue_depth = 8;
      p.mb_per_s = noisy(200 * level);
      point(p);
    }
    return out;
  }

  // Stores one run in both histories and judges it through each; expects
  // the same verdicts and returns them.
  std::vector<Verdict> RunAndJudge(int drive, const std::string& test, std::int64_t at,
                                   double level, bool confirmation) {
    dp::Run r;
    r.drive_id = drives_[drive].id;
    r.test = test;
    r.trigger = confirmation ? ConfirmTrigger(1) : "schedule:weekly";
    r.started_at = at;
    r.ended_at = at + 600;
    r.outcome = RunOutcome::kOk;
    auto id = store_->InsertRun(r);
    EXPECT_TRUE(id.ok());
    detect::RunToJudge run;
    run.id = *id;
    run.test = test;
    run.started_at = at;
    run.drive = drives_[drive];
    run.points = Points(test, level);
    run.confirmation = confirmation;
    EXPECT_TRUE(store_->AddMeasurements(run.id, run.points).ok());
    detect::StoredRun stored_run{run.id, test, at, false, false, {}};
    stored_run.confirmation = confirmation;
    memory_.AddRun(run.drive.id, stored_run, run.points);
    StoreSeriesHistory stored(*store_);
    auto from_store = detect::JudgeRun(run, stored, cfg_);
    auto from_memory = detect::JudgeRun(run, memory_, cfg_);
    EXPECT_TRUE(from_store.ok()) << from_store.status().ToString();
    EXPECT_TRUE(from_memory.ok()) << from_memory.status().ToString();
    if (!from_store.ok() || !from_memory.ok()) return {};
    // The peer verdicts the run made due, through each history.
    auto peers_store = detect::JudgeDuePeers(test, at + 600, stored, cfg_, true);
    auto peers_memory = detect::JudgeDuePeers(test, at + 600, memory_, cfg_, true);
    EXPECT_TRUE(peers_store.ok() && peers_memory.ok());
    if (!peers_store.ok() || !peers_memory.ok()) return {};
    from_store->Add(std::move(*peers_store));
    from_memory->Add(std::move(*peers_memory));
    const auto& a = from_store->verdicts;
    const auto& b = from_memory->verdicts;
    EXPECT_EQ(a.size(), b.size()) << test << " at " << at;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      EXPECT_EQ(VerdictToJson(a[i]).dump(), VerdictToJson(b[i]).dump());
    EXPECT_EQ(from_store->peer_judged, from_memory->peer_judged);
    EXPECT_EQ(from_store->retests, from_memory->retests);
    for (std::int64_t id : from_store->peer_judged) {
      EXPECT_TRUE(store_->MarkPeerJudged(id).ok());
      memory_.AddPeerJudged(id);
    }
    return a;
  }

  // One week: every drive runs every test at `level(drive, test)`, 30
  // minutes apart, then each test that asked re-tests 6 hours later.
  template <typename Level>
  void Week(int week, Level level) {
    const std::int64_t at = kT0 + week * kWeek;
    std::vector<std::pair<int, std::string>> retests;
    for (int d = 0; d < kDrives; ++d) {
      int n = 0;
      for (const char* test : {"zones", "seek", "random", "seq"}) {
        const std::int64_t when = at + d * 7200 + 1800 * n++;
        bool asks = false;
        for (const Verdict& v : RunAndJudge(d, test, when, level(d, test), false)) {
          Count(v);
          asks = asks || v.kind == VerdictKind::kNeedsConfirmation;
        }
        if (asks) retests.emplace_back(d, test);
      }
    }
    for (const auto& [d, test] : retests)
      for (const Verdict& v : RunAndJudge(d, test, at + 6 * 3600 + d * 600, level(d, test), true))
        Count(v);
  }

  void Count(const Verdict& v) { ++kinds_[v.kind]; }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  detect::MemorySeriesHistory memory_;
  std::vector<detect::DriveRef> drives_;
  DetectionConfig cfg_;
  std::mt19937_64 rng_{7};
  std::normal_distribution<double> noise_{0, 1};
  std::map<VerdictKind, int> kinds_;
};

TEST_F(JudgeSeamTest, TheStoreAndTheMemoryHistoryJudgeEveryRunAlike) {
  for (int w = 0; w < 16; ++w) Week(w, [](int, const std::string&) { return 1.0; });
  // A re-baseline of drive 1's seq, as the API or discovery would keep it.
  RebaselineMark mark;
  mark.drive_id = drives_[1].id;
  mark.test = "seq";
  mark.at = kT0 + 16 * kWeek;
  mark.reason = "new cable";
  ASSERT_TRUE(store_->InsertRebaseline(mark).ok());
  memory_.AddRebaseline(mark.drive_id, mark.test, mark.at);
  // Drive 0's read path drops 20%; later the whole vdev's does.
  for (int w = 16; w < 22; ++w)
    Week(w, [](int d, const std::string& test) {
      return d == 0 && (test == "zones" || test == "seq") ? 0.8 : 1.0;
    });
  for (int w = 22; w < 26; ++w)
    Week(w, [](int d, const std::string& test) {
      return test == "zones" || test == "seq" ? (d == 0 ? 0.8 * 0.85 : 0.85) : 1.0;
    });
  // Not a comparison of empty lists: the runs were judged, doubted,
  // confirmed and the vdev's shared drop seen.
  EXPECT_GT(kinds_[VerdictKind::kClear], 100);
  EXPECT_GT(kinds_[VerdictKind::kNeedsConfirmation], 0);
  EXPECT_GT(kinds_[VerdictKind::kSlowdown], 0);
  EXPECT_GT(kinds_[VerdictKind::kPeerOutlier] + kinds_[VerdictKind::kEnvironment], 0);
}

}  // namespace
}  // namespace dp
