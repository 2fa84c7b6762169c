// Every member of a vdev slowing in the same window is one environment
// verdict for the vdev (controller, enclosure temperature, pool load), not
// one slowdown alert per drive; one drive slowing alone is still its own
// slowdown. RunEvaluator over a real SQLite store with a recorded pool.
#include <gtest/gtest.h>

#include <map>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "runs/run_evaluator.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

constexpr int kMembers = 4;

class VdevEnvironmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    Pool p;
    p.name = "tank";
    Vdev v;
    v.name = "raidz1-0";
    v.type = "raidz1";
    v.role = "data";
    for (int i = 0; i < kMembers; ++i) {
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
      v.members.push_back(m);
    }
    p.vdevs.push_back(v);
    ASSERT_TRUE(store_->RecordPools({p}, 1000).ok());
    repo_ = std::make_unique<StoreAlertRepository>(*store_);
    AlertServiceOptions o;
    alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, o);
    MakeEvaluator();
  }

  // The evaluator with cfg_ as it is now.
  void MakeEvaluator() {
    evaluator_ = std::make_unique<RunEvaluator>(
        *store_, alerts_.get(), cfg_,
        [this](const std::string& drive, const std::string&, std::int64_t) {
          retests_.push_back(drive);
        });
  }

  void SeqRun(int member, std::int64_t at, double mb_per_s, const std::string& trigger) {
    dp::Run r;
    r.drive_id = "wwn-" + std::to_string(member);
    r.test = "seq";
    r.trigger = trigger;
    r.started_at = at;
    r.ended_at = at + 10;
    r.outcome = RunOutcome::kOk;
    auto id = store_->InsertRun(r);
    ASSERT_TRUE(id.ok());
    r.id = *id;
    BenchPoint p;
    p.test = "seq";
    p.block_size = 1 << 20;
    p.queue_depth = 8;
    p.bytes = 1 << 30;
    p.seconds = 1;
    p.mb_per_s = mb_per_s;
    ASSERT_TRUE(store_->AddMeasurements(r.id, {p}).ok());
    clock_.Set(FromUnixSeconds(at + 10));
    ASSERT_TRUE(evaluator_->Evaluate(r).ok());
  }

  // One weekly window: every member measured 20 minutes apart, each doubtful
  // member re-tested an hour after the last; level(member) is its MB/s.
  // members: how many of the vdev run this week (the first ones).
  template <typename Level>
  void Week(int week, Level level, int members = kMembers) {
    const std::int64_t t = 1'700'000'000 + static_cast<std::int64_t>(week) * 7 * 86400;
    retests_.clear();
    for (int i = 0; i < members; ++i)
      SeqRun(i, t + i * 1200, level(i) * (1 + 0.01 * ((week + i) % 3 - 1)), "schedule:weekly");
    auto again = retests_;
    for (std::size_t k = 0; k < again.size(); ++k)
      SeqRun(std::stoi(again[k].substr(4)), t + kMembers * 1200 + 3600 + k * 600,
             level(std::stoi(again[k].substr(4))), "confirm:0");
  }

  std::vector<Alert> Active() { return All("active"); }

  // Every alert ("") or the active ones, newest first.
  std::vector<Alert> All(const std::string& state = "") {
    AlertFilter f;
    f.state = state;
    f.limit = 0;
    auto a = store_->ListAlerts(f);
    EXPECT_TRUE(a.ok());
    return a.ok() ? *a : std::vector<Alert>{};
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<StoreAlertRepository> repo_;
  FakeClock clock_;
  std::unique_ptr<AlertService> alerts_;
  DetectionConfig cfg_;
  std::unique_ptr<RunEvaluator> evaluator_;
  std::vector<std::string> retests_;
};

TEST_F(VdevEnvironmentTest, WholeVdevSlowingTogetherIsOneEnvironmentAlert) {
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  ASSERT_TRUE(Active().empty());
  for (int w = 8; w < 11; ++w) Week(w, [](int) { return 160.0; });  // the HBA got hot
  auto active = Active();
  ASSERT_EQ(active.size(), 1u);
  EXPECT_EQ(active[0].condition, "environment:box");
  EXPECT_EQ(active[0].drive_id, "");  // the box's, no drive's
  EXPECT_NE(active[0].evidence_json.find("environment:tank/raidz1-0:seq:qd8-1m:mb_per_s"),
            std::string::npos);
  EXPECT_NE(active[0].summary.find("across the vdev"), std::string::npos)
      << active[0].summary;
  for (const auto& a : active) EXPECT_EQ(a.condition.find("slowdown:"), std::string::npos);
  // The environment recovers: the alert resolves after clear runs.
  for (int w = 11; w < 16; ++w) Week(w, [](int) { return 200.0; });
  EXPECT_TRUE(Active().empty());
}

TEST_F(VdevEnvironmentTest, OneDriveSlowingAloneIsItsOwnSlowdown) {
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  for (int w = 8; w < 10; ++w) Week(w, [](int m) { return m == 2 ? 160.0 : 200.0; });
  auto active = Active();
  bool slowdown = false;
  for (const auto& a : active) {
    EXPECT_EQ(a.condition.find("environment:"), std::string::npos) << a.condition;
    if (a.drive_id == "wwn-2" && a.condition == "slowdown:drive") slowdown = true;
  }
  EXPECT_TRUE(slowdown);
  EXPECT_TRUE(store_->ListRebaselines("wwn-2", 0)->empty());  // its own drop is never absorbed
}

// A benign permanent change of the whole box (a new HBA driver): one
// environment alert, notified once; every member's baseline re-forms on the
// new level by an automatic mark; no drive alert follows and re-tests return
// to normal.
TEST_F(VdevEnvironmentTest, PermanentBoxWideShiftIsAbsorbedOnce) {
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  int retests_late = 0;
  for (int w = 8; w < 40; ++w) {
    Week(w, [](int) { return 184.0; });
    if (w >= 20) retests_late += static_cast<int>(retests_.size());
  }
  int environment = 0, drive_alerts = 0;
  for (const Alert& a : All()) {
    if (a.condition == "environment:box") {
      ++environment;
      // Told once (a watch notified when still there, and its resolution).
      EXPECT_LE(a.notify_count, 2) << a.history_json;
    } else {
      ++drive_alerts;
    }
  }
  EXPECT_EQ(environment, 1);
  EXPECT_EQ(drive_alerts, 0);
  EXPECT_TRUE(Active().empty());
  EXPECT_EQ(retests_late, 0);
  for (int i = 0; i < kMembers; ++i) {
    auto marks = store_->ListRebaselines("wwn-" + std::to_string(i), 0);
    ASSERT_TRUE(marks.ok());
    ASSERT_EQ(marks->size(), 1u) << "member " << i;
    EXPECT_EQ((*marks)[0].test, "");  // every test of the drive
    // Its own, or with the sibling whose verdict re-formed the vdev.
    EXPECT_EQ((*marks)[0].reason.rfind("automatic", 0), 0u) << (*marks)[0].reason;
    // From the first shifted run of the drive on.
    EXPECT_GE((*marks)[0].at, 1'700'000'000 + 8 * 7 * 86400);
    EXPECT_LT((*marks)[0].at, 1'700'000'000 + 9 * 7 * 86400);
  }
}

// A step the single-run bands hide (here bands of 12%: a noisy box) is
// still the box's when the CUSUM finds it: over the CUSUM's weeks every
// sibling's runs are as far below their own baselines, so it is one
// environment notice and every member re-forms, not a slowdown per drive.
TEST_F(VdevEnvironmentTest, AStepInsideTheBandsIsTheVdevsOverTheCusumsWeeks) {
  cfg_.min_band_percent = 12;
  MakeEvaluator();
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  for (int w = 8; w < 24; ++w) Week(w, [](int) { return 178.0; });
  int environment = 0;
  for (const Alert& a : All()) {
    EXPECT_EQ(a.condition, "environment:box") << a.drive_id << " " << a.summary;
    if (a.condition == "environment:box") {
      ++environment;
      EXPECT_NE(a.opened_summary.find("over the same"), std::string::npos) << a.opened_summary;
      EXPECT_EQ(a.notify_count, 2) << a.history_json;  // told once, and its resolution
    }
  }
  EXPECT_EQ(environment, 1);
  for (int i = 0; i < kMembers; ++i)
    EXPECT_EQ(store_->ListRebaselines("wwn-" + std::to_string(i), 0)->size(), 1u) << i;
}

// The same drop on one drive alone: the siblings did not move over its
// weeks, so it is that drive's slowdown and nothing is absorbed.
TEST_F(VdevEnvironmentTest, OneDrivesDropInsideTheBandsStaysItsOwn) {
  cfg_.min_band_percent = 12;
  MakeEvaluator();
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  for (int w = 8; w < 24; ++w) Week(w, [](int m) { return m == 1 ? 178.0 : 200.0; });
  auto active = Active();
  ASSERT_EQ(active.size(), 1u);
  EXPECT_EQ(active[0].condition, "slowdown:drive");
  EXPECT_EQ(active[0].drive_id, "wwn-1");
  for (int i = 0; i < kMembers; ++i)
    EXPECT_TRUE(store_->ListRebaselines("wwn-" + std::to_string(i), 0)->empty()) << i;
}

// A drive's own drop, weeks old, and one bad week of its siblings: the week
// is shared, but the siblings did not share the weeks before it, so the
// drive's drop is not absorbed as the box's new level.
TEST_F(VdevEnvironmentTest, OneWeekOfTheSiblingsDoesNotAbsorbADrivesOwnDrop) {
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  for (int w = 8; w < 11; ++w) Week(w, [](int m) { return m == 0 ? 170.0 : 200.0; });
  Week(11, [](int) { return 170.0; });
  for (int w = 12; w < 16; ++w) Week(w, [](int m) { return m == 0 ? 170.0 : 200.0; });
  EXPECT_TRUE(store_->ListRebaselines("wwn-0", 0)->empty());
  bool slowdown = false;
  for (const Alert& a : Active()) slowdown = slowdown || (a.drive_id == "wwn-0" &&
                                                          a.condition == "slowdown:drive");
  EXPECT_TRUE(slowdown);
}

// Bad input: a vdev of two has too few siblings for an environment verdict:
// each drive is judged alone, one alert per drive at most, no storm.
TEST_F(VdevEnvironmentTest, TwoMembersAreJudgedAloneWithoutAStorm) {
  cfg_.peer_min_siblings = 2;
  for (int w = 0; w < 8; ++w) Week(w, [](int m) { return m < 2 ? 200.0 : 0.0; }, 2);
  for (int w = 8; w < 14; ++w) Week(w, [](int m) { return m < 2 ? 170.0 : 0.0; }, 2);
  std::map<std::string, int> per_drive;
  for (const Alert& a : All()) ++per_drive[a.drive_id + " " + a.condition];
  for (const auto& [key, n] : per_drive) EXPECT_EQ(n, 1) << key;
  EXPECT_LE(per_drive.size(), 2u);
}

// A vdev of drives that are all different models (replacements bought over
// the years): each is compared with the others by its change against its
// own baseline, so the box's shift is still one event, the box's, and no
// drive's slowdown.
TEST_F(VdevEnvironmentTest, AVdevOfAllDifferentModelsSharesOneBoxEvent) {
  for (int i = 0; i < kMembers; ++i) {
    Drive d;
    d.id = "wwn-" + std::to_string(i);
    d.name = "sd" + std::string(1, static_cast<char>('a' + i));
    d.dev_path = "/dev/" + d.name;
    d.model = "MODEL-" + std::to_string(i);
    ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
  }
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  for (int w = 8; w < 20; ++w) Week(w, [](int) { return 160.0; });
  int box = 0;
  for (const Alert& a : All()) {
    EXPECT_EQ(a.condition, "environment:box") << a.drive_id << " " << a.summary;
    if (a.condition == "environment:box") ++box;
  }
  EXPECT_EQ(box, 1);
  auto marks = store_->ListRebaselines("wwn-0", 10);
  ASSERT_TRUE(marks.ok());
  EXPECT_FALSE(marks->empty()) << "the shift was never absorbed";
}

// Bad input: a drive missing while the box shifted, and a replacement that
// joins after it: no crash, no drive alert for the returning drive's shared
// shift once it is absorbed, the replacement forms its baseline on the new level.
TEST_F(VdevEnvironmentTest, MissingAndReplacementDrivesAroundAShift) {
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  // wwn-3 is away for weeks 8-11 (no runs), the box shifted at week 8.
  for (int w = 8; w < 12; ++w) Week(w, [](int) { return 184.0; }, 3);
  for (int w = 12; w < 30; ++w) Week(w, [](int) { return 184.0; });
  int environment = 0;
  for (const Alert& a : All()) {
    EXPECT_TRUE(a.condition == "environment:box") << a.drive_id << " " << a.summary;
    environment += a.condition == "environment:box";
  }
  EXPECT_LE(environment, 2);
  EXPECT_TRUE(Active().empty());
}

}  // namespace
}  // namespace dp
