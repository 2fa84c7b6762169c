#include "alert/alert_service.h"

#include <gtest/gtest.h>

#include "base/fake_clock.h"

namespace dp {
namespace {

struct Recorder : Notifier {
  std::vector<Notification> got;
  void Submit(const Notification& n) override { got.push_back(n); }
};

Verdict V(const std::string& drive, const std::string& condition, VerdictKind kind) {
  Verdict v;
  v.drive_id = drive;
  v.drive_name = drive == "wwn-1" ? "sda" : "";
  v.condition = condition;
  v.kind = kind;
  v.severity = Severity::kWarning;
  v.summary = drive + " " + condition + " " + std::string(VerdictKindName(kind));
  return v;
}

TEST(AlertService, OneAlertPerDriveAndConditionAndNotificationsCarryTheDriveName) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertService svc(repo, &rec, clock, AlertServiceOptions{});
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kSlowdown)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kSlowdown)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "smart:pending_sectors", VerdictKind::kSmart)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-2", "slowdown:seq", VerdictKind::kSlowdown)).ok());
  EXPECT_EQ(repo.All().size(), 3u);
  ASSERT_EQ(rec.got.size(), 3u);
  EXPECT_EQ(rec.got[0].kind, NotifyKind::kOpened);
  EXPECT_EQ(rec.got[0].Drive(), "sda");
  EXPECT_EQ(rec.got[0].alert.id, 1);
  EXPECT_EQ(rec.got[2].Drive(), "wwn-2");
}

TEST(AlertService, RemindersAckAndResolveThroughTheRepository) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertServiceOptions opt;
  opt.policy.resolve_after_clear_runs = 2;
  AlertService svc(repo, &rec, clock, opt);
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kSlowdown)).ok());
  clock.Advance(std::chrono::hours(23));
  ASSERT_TRUE(svc.CheckReminders().ok());
  EXPECT_EQ(rec.got.size(), 1u);
  clock.Advance(std::chrono::hours(1));
  ASSERT_TRUE(svc.CheckReminders().ok());
  ASSERT_EQ(rec.got.size(), 2u);
  EXPECT_EQ(rec.got[1].kind, NotifyKind::kReminder);

  auto acked = svc.Acknowledge(1);
  ASSERT_TRUE(acked.ok());
  EXPECT_EQ(acked->state, "acknowledged");
  clock.Advance(std::chrono::hours(24 * 10));
  ASSERT_TRUE(svc.CheckReminders().ok());
  EXPECT_EQ(rec.got.size(), 2u);

  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kClear)).ok());
  auto r = svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kClear));
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(*r);
  EXPECT_EQ((*r)->state, "resolved");
  ASSERT_EQ(rec.got.size(), 3u);
  EXPECT_EQ(rec.got[2].kind, NotifyKind::kResolved);
  EXPECT_TRUE(repo.ActiveAlerts()->empty());

  EXPECT_EQ(svc.Acknowledge(1).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(svc.Acknowledge(99).status().code(), StatusCode::kNotFound);
}

TEST(AlertService, DisabledNotificationsStillStoreAlerts) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertServiceOptions opt;
  opt.notify = false;
  AlertService svc(repo, &rec, clock, opt);
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "smart:health", VerdictKind::kSmart)).ok());
  EXPECT_EQ(repo.All().size(), 1u);
  EXPECT_TRUE(rec.got.empty());
}

}  // namespace
}  // namespace dp
