// Overrides set through the API, over a real store and the fake clock: kept
// with who/when/why and audited; a mute holds the drive's notifications
// while its alerts still open; when it expires the held alert is announced
// and the mute resolves itself (deleted, audited "expired").
#include "runs/override_book.h"

#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "runs/run_evaluator.h"
#include "smart/smartctl_parser.h"
#include "runs/store_alert_repository.h"
#include "store/store_test_util.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

struct Recorder : Notifier {
  std::vector<Notification> got;
  void Submit(const Notification& n) override { got.push_back(n); }
};

class OverrideBookTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-1", "sda"), 1).ok());
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-2", "sdb"), 1).ok());
    book_ = std::make_unique<OverrideBook>(*store_, clock_, std::vector<DriveOverride>{});
    repo_ = std::make_unique<StoreAlertRepository>(*store_);
    AlertServiceOptions options;
    options.muted_until = [this](const std::string& drive, const std::string& condition) {
      return book_->MutedUntil(drive, condition);
    };
    alerts_ = std::make_unique<AlertService>(*repo_, &sent_, clock_, options);
  }

  std::int64_t Now() const { return ToUnixSeconds(clock_.Now()); }

  static Verdict Pending(const std::string& drive) {
    Verdict v;
    v.drive_id = drive;
    v.condition = "smart:pending_sectors";
    v.kind = VerdictKind::kSmart;
    v.severity = Severity::kCritical;
    v.summary = drive + ": 8 pending sectors";
    return v;
  }

  testing::TempDir tmp_;
  FakeClock clock_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<OverrideBook> book_;
  std::unique_ptr<StoreAlertRepository> repo_;
  Recorder sent_;
  std::unique_ptr<AlertService> alerts_;
};

TEST_F(OverrideBookTest, SetAndDeleteAreKeptWithWhoWhenAndWhy) {
  DriveOverride o;
  o.serial = "wd-sda";
  o.attribute = "199";
  o.ignore = true;
  o.reason = "old cable";
  auto kept = book_->Set(o, "api 192.0.2.7:5000");
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(kept->attribute, "udma_crc_errors");
  EXPECT_EQ(kept->who, "api 192.0.2.7:5000");
  EXPECT_EQ(kept->at, Now());
  auto all = book_->All();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0], *kept);

  clock_.Advance(std::chrono::hours(1));
  ASSERT_TRUE(book_->Delete(std::to_string(kept->id), "api 192.0.2.8:6000", "cable replaced").ok());
  EXPECT_TRUE(book_->All()->empty());
  auto audit = store_->ListOverrideAudit(0);
  ASSERT_TRUE(audit.ok());
  ASSERT_EQ(audit->size(), 2u);
  EXPECT_EQ((*audit)[0].action, "deleted");
  EXPECT_EQ((*audit)[0].who, "api 192.0.2.8:6000");
  EXPECT_EQ((*audit)[0].reason, "cable replaced");
  EXPECT_EQ((*audit)[0].at, Now());
  EXPECT_EQ((*audit)[0].override_id, kept->id);
  EXPECT_EQ((*audit)[1].action, "set");
  EXPECT_EQ((*audit)[1].who, "api 192.0.2.7:5000");
  EXPECT_EQ((*audit)[1].reason, "old cable");
  EXPECT_NE((*audit)[1].override_json.find("\"udma_crc_errors\""), std::string::npos);
  EXPECT_EQ(book_->Delete(std::to_string(kept->id), "x", "").code(), StatusCode::kNotFound);
}

TEST_F(OverrideBookTest, UnknownDrivesAttributesAndDeviceTypesAreRefused) {
  DriveOverride o;
  o.drive_id = "wwn-9";
  o.attribute = "5";
  o.ignore = true;
  EXPECT_EQ(book_->Set(o, "api").status().message(), "drive: no known drive has id 'wwn-9'");
  o.drive_id = "wwn-1";
  o.attribute = "reallocated";
  EXPECT_EQ(book_->Set(o, "api").status().code(), StatusCode::kInvalidArgument);
  o.attribute = "";
  o.ignore = false;
  o.device_type = "sat";
  EXPECT_NE(book_->Set(o, "api").status().message().find("config file"), std::string::npos);
  EXPECT_TRUE(store_->ListOverrides()->empty());
}

TEST_F(OverrideBookTest, AMuteHoldsNotificationsUntilItExpiresThenResolvesItself) {
  DriveOverride mute;
  mute.drive_id = "wwn-1";
  mute.mute_until = Now() + 7 * 86400;
  mute.reason = "being replaced";
  auto kept = book_->Set(mute, "api 192.0.2.7:5000");
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();

  // The muted drive's alert opens and is recorded, but nothing is sent; the
  // other drive's is sent as ever.
  auto opened = alerts_->OnVerdict(Pending("wwn-1"));
  ASSERT_TRUE(opened.ok() && *opened);
  EXPECT_EQ((*opened)->state, "open");
  EXPECT_EQ((*opened)->notify_count, 0);
  ASSERT_TRUE(alerts_->OnVerdict(Pending("wwn-2")).ok());
  ASSERT_EQ(sent_.got.size(), 1u);
  EXPECT_EQ(sent_.got[0].alert.drive_id, "wwn-2");

  // Still muted after six days: reminders are not owed, nothing goes out.
  clock_.Advance(std::chrono::hours(24 * 6));
  ASSERT_TRUE(alerts_->CheckReminders().ok());
  for (const auto& n : sent_.got) EXPECT_NE(n.alert.drive_id, "wwn-1");
  EXPECT_EQ(book_->All()->size(), 1u);

  // Past the expiry: the held alert is announced once, and the mute is gone.
  clock_.Advance(std::chrono::hours(24 + 1));
  const std::size_t before = sent_.got.size();
  ASSERT_TRUE(alerts_->CheckReminders().ok());
  ASSERT_EQ(sent_.got.size(), before + 1);
  EXPECT_EQ(sent_.got.back().alert.drive_id, "wwn-1");
  EXPECT_EQ(sent_.got.back().kind, NotifyKind::kOpened);
  ASSERT_TRUE(alerts_->CheckReminders().ok());
  EXPECT_EQ(sent_.got.size(), before + 1);  // once
  EXPECT_TRUE(book_->All()->empty());
  auto audit = store_->ListOverrideAudit(1);
  ASSERT_TRUE(audit.ok() && audit->size() == 1u);
  EXPECT_EQ((*audit)[0].action, "expired");
  EXPECT_EQ((*audit)[0].who, "diskpulse");
  EXPECT_EQ((*audit)[0].override_id, kept->id);
}

TEST_F(OverrideBookTest, AnAttributeMuteCoversOnlyThatAttribute) {
  DriveOverride mute;
  mute.drive_id = "wwn-1";
  mute.attribute = "197";
  mute.mute_until = Now() + 3600;
  ASSERT_TRUE(book_->Set(mute, "api").ok());
  EXPECT_EQ(book_->MutedUntil("wwn-1", "smart:pending_sectors"), Now() + 3600);
  EXPECT_EQ(book_->MutedUntil("wwn-1", "smart:reallocated_sectors"), std::nullopt);
  EXPECT_EQ(book_->MutedUntil("wwn-2", "smart:pending_sectors"), std::nullopt);
}

TEST_F(OverrideBookTest, AKindMuteHoldsThatKindOfAlertWhileOtherKindsAreSent) {
  DriveOverride mute;
  mute.drive_id = "wwn-1";
  mute.kind = "selftest";
  mute.mute_until = Now() + 86400;
  auto kept = book_->Set(mute, "api");
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(store_->ListOverrides()->at(0).kind, "selftest");

  Verdict selftest = Pending("wwn-1");
  selftest.condition = "selftest:overdue";
  selftest.kind = VerdictKind::kHealth;
  selftest.summary = "wwn-1: no self-test for 40 days";
  auto held = alerts_->OnVerdict(selftest);
  ASSERT_TRUE(held.ok() && *held);
  EXPECT_EQ((*held)->state, "open");
  EXPECT_EQ((*held)->notify_count, 0);
  EXPECT_TRUE(sent_.got.empty());
  // The same drive's SMART alert is another kind: sent.
  ASSERT_TRUE(alerts_->OnVerdict(Pending("wwn-1")).ok());
  ASSERT_EQ(sent_.got.size(), 1u);
  EXPECT_EQ(sent_.got[0].alert.condition, "smart:pending_sectors");
}

TEST_F(OverrideBookTest, APoolOverrideHoldsThePoolsAlertsWhichHaveNoDrive) {
  Pool tank;
  tank.name = "tank";
  ASSERT_TRUE(store_->RecordPools({tank}, Now()).ok());
  DriveOverride mute;
  mute.pool = "tank";
  mute.kind = "scrub";
  mute.mute_until = Now() + 86400;
  ASSERT_TRUE(book_->Set(mute, "api").ok());
  DriveOverride unknown = mute;
  unknown.pool = "backup*";
  auto refused = book_->Set(unknown, "api");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("pool: pool pattern 'backup*' matches no known pool"),
            std::string::npos);

  auto pool_verdict = [](const std::string& condition) {
    Verdict v;
    v.condition = condition;
    v.kind = VerdictKind::kHealth;
    v.severity = Severity::kWarning;
    v.summary = condition;
    return v;
  };
  ASSERT_TRUE(alerts_->OnVerdict(pool_verdict("scrub:tank:overdue")).ok());
  EXPECT_TRUE(sent_.got.empty());
  ASSERT_TRUE(alerts_->OnVerdict(pool_verdict("pool:tank:state")).ok());
  ASSERT_EQ(sent_.got.size(), 1u);
  EXPECT_EQ(sent_.got[0].alert.condition, "pool:tank:state");
}

TEST_F(OverrideBookTest, TheConfigFilesOverridesAreReadOnly) {
  DriveOverride file;
  file.source = "config";
  file.where = "diskpulse.json:12";
  file.drive_id = "wwn-1";
  file.attribute = "temperature";
  file.threshold = 55;
  OverrideBook book(*store_, clock_, {file});
  auto s = book.Delete("config-0", "api", "");
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("diskpulse.json:12"), std::string::npos);
  EXPECT_EQ(book.Delete("config-1", "api", "").code(), StatusCode::kNotFound);
  ASSERT_EQ(book.All()->size(), 1u);
}

// The judge of a `smart` run asks the book: a drive whose CRC count grew
// (the real capture of an HGST HUS724020ALE640 with 12, after 10) opens no
// alert once its serial's override ignores attribute 199.
TEST_F(OverrideBookTest, ASmartRunIsJudgedWithTheOverridesInForce) {
  auto reading = ParseSmartctlOutput(testing::ReadFile(
      testing::FixturePath("smartctl/ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json")));
  ASSERT_TRUE(reading.ok());
  Drive d = testing::MakeDrive("wwn-hgst", "sdc");
  d.model = reading->snapshot.model;
  d.serial = reading->snapshot.serial;
  ASSERT_TRUE(store_->UpsertDrive(d, 1).ok());
  SmartSnapshot before = reading->snapshot;
  before.udma_crc_errors = 10;
  ASSERT_TRUE(store_->InsertSmartSnapshot(d.id, Now() - 3600, before).ok());
  ASSERT_TRUE(store_->InsertSmartSnapshot(d.id, Now(), reading->snapshot).ok());
  dp::Run run;
  run.drive_id = d.id;
  run.test = "smart";
  run.started_at = Now();
  run.ended_at = Now();
  run.outcome = RunOutcome::kOk;
  auto id = store_->InsertRun(run);
  ASSERT_TRUE(id.ok());
  run.id = *id;

  auto crc = [](const std::vector<Verdict>& vs) {
    for (const Verdict& v : vs)
      if (v.condition == "smart:udma_crc_errors") return v.kind;
    return VerdictKind::kInconclusive;
  };
  RunEvaluator plain(*store_, nullptr, DetectionConfig{}, nullptr, book_.get());
  auto judged = plain.Evaluate(run);
  ASSERT_TRUE(judged.ok()) << judged.status().ToString();
  EXPECT_EQ(crc(*judged), VerdictKind::kSmart);

  DriveOverride file;
  file.source = "config";
  file.where = "diskpulse.json:9";
  file.serial = d.serial;
  file.attribute = "udma_crc_errors";
  file.ignore = true;
  OverrideBook book(*store_, clock_, {file});
  RunEvaluator tuned(*store_, alerts_.get(), DetectionConfig{}, nullptr, &book);
  judged = tuned.Evaluate(run);
  ASSERT_TRUE(judged.ok()) << judged.status().ToString();
  EXPECT_EQ(crc(*judged), VerdictKind::kClear);
  auto active = repo_->ActiveAlerts();
  ASSERT_TRUE(active.ok());
  for (const Alert& a : *active) EXPECT_NE(a.condition, "smart:udma_crc_errors");
}

}  // namespace
}  // namespace dp
