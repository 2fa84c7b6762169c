#include "alert/alert_service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

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
  // "KIND:TEST:...": the test, as detect fills it in.
  const std::string rest = condition.substr(condition.find(':') + 1);
  v.test = rest.substr(0, rest.find(':'));
  v.kind = kind;
  v.severity = Severity::kWarning;
  v.summary = drive + " " + condition + " " + std::string(VerdictKindName(kind));
  return v;
}

// Slowdown alerts notified at once (no watch), as the rules below are written for.
AlertServiceOptions AtOnce() {
  AlertServiceOptions o;
  o.policy.persist_before_notify = std::chrono::seconds(0);
  return o;
}

TEST(AlertService, OneAlertPerDriveAndConditionAndNotificationsCarryTheDriveName) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertService svc(repo, &rec, clock, AtOnce());
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

TEST(AlertService, ResolveActiveClosesOnlyTheMatchesWithTheirReasonAndNoNotification) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertService svc(repo, &rec, clock, AtOnce());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kSlowdown)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "smart:pending_sectors", VerdictKind::kSmart)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-2", "slowdown:seq", VerdictKind::kSlowdown)).ok());
  const std::size_t sent = rec.got.size();
  auto done = svc.ResolveActive(
      [](const Alert& a) { return a.drive_id == "wwn-1" && a.condition == "slowdown:drive"; },
      "re-baselined: firmware changed", 1234);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  ASSERT_EQ(done->size(), 1u);
  EXPECT_EQ((*done)[0].state, "resolved");
  EXPECT_EQ((*done)[0].resolution, "re-baselined: firmware changed");
  EXPECT_EQ((*done)[0].resolved_at, 1234);
  EXPECT_EQ(rec.got.size(), sent);
  int active = 0;
  for (const auto& a : repo.All()) active += a.state != "resolved";
  EXPECT_EQ(active, 2);
}

// A repository whose reads of an open alert take a while, so that a verdict
// being applied (read, decide, write back) overlaps a concurrent resolution.
class SlowReads final : public AlertRepository {
 public:
  Result<std::optional<Alert>> OpenAlertFor(const std::string& drive_id,
                                            const std::string& condition) override {
    auto a = inner.OpenAlertFor(drive_id, condition);
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    return a;
  }
  Result<std::int64_t> InsertAlert(const Alert& a) override { return inner.InsertAlert(a); }
  Status UpdateAlert(const Alert& a) override { return inner.UpdateAlert(a); }
  Result<std::vector<Alert>> ActiveAlerts() override { return inner.ActiveAlerts(); }
  Result<std::optional<Alert>> GetAlert(std::int64_t id) override { return inner.GetAlert(id); }
  Result<std::int64_t> InsertRebaseline(const RebaselineMark& m) override {
    return inner.InsertRebaseline(m);
  }
  Result<std::optional<Alert>> LastResolvedFor(const std::string& d,
                                               const std::string& c) override {
    return inner.LastResolvedFor(d, c);
  }
  InMemoryAlertRepository inner;
};

// Verdicts applied on one thread while another resolves: an alert once
// resolved is never written back open (a firing verdict opens a new one).
// Without the service's lock around the resolution this fails.
TEST(AlertService, ResolvedAlertIsNeverReopenedByAConcurrentVerdict) {
  FakeClock clock;
  SlowReads repo;
  AlertService svc(repo, nullptr, clock, AtOnce());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kSlowdown)).ok());
  std::atomic<bool> stop{false};
  std::thread verdicts([&] {
    while (!stop) {
      (void)svc.OnVerdict(V("wwn-1", "slowdown:seq", VerdictKind::kSlowdown));
      std::this_thread::yield();
    }
  });
  std::vector<std::int64_t> resolved_ids;
  for (int i = 0; i < 100; ++i) {
    auto done = svc.ResolveActive([](const Alert&) { return true; }, "re-baselined", 1);
    ASSERT_TRUE(done.ok());
    for (const auto& a : *done) resolved_ids.push_back(a.id);
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  stop = true;
  verdicts.join();
  ASSERT_FALSE(resolved_ids.empty());
  for (const auto& a : repo.inner.All()) {
    bool was_resolved =
        std::find(resolved_ids.begin(), resolved_ids.end(), a.id) != resolved_ids.end();
    if (was_resolved) {
      EXPECT_EQ(a.state, "resolved") << "alert " << a.id << " was reopened";
    }
  }
}

TEST(AlertService, ARebaselineClosesTheDrivesOwnPastComparisons) {
  EXPECT_TRUE(ClosedByRebaseline("slowdown:seq:qd8-1m:mb_per_s", ""));
  EXPECT_TRUE(ClosedByRebaseline("trend:random:qd1-4k:p99_us", ""));
  EXPECT_TRUE(ClosedByRebaseline("slowdown:seq:qd8-1m:mb_per_s", "seq"));
  EXPECT_TRUE(ClosedByRebaseline("slowdown:seq", "seq"));
  EXPECT_FALSE(ClosedByRebaseline("slowdown:seq:qd8-1m:mb_per_s", "seek"));
  EXPECT_FALSE(ClosedByRebaseline("slowdown:sequel:x", "seq"));
  EXPECT_FALSE(ClosedByRebaseline("peer:seq:qd8-1m:mb_per_s", ""));
  EXPECT_FALSE(ClosedByRebaseline("smart:reallocated", ""));
  EXPECT_FALSE(ClosedByRebaseline("zfs:cksum", ""));
}

TEST(AlertService, RebaselineKeepsTheMarkAndClosesOnlyItsAlertsWithoutNotifying) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertService svc(repo, &rec, clock, AtOnce());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kSlowdown)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:random:qd1-4k:iops", VerdictKind::kSlowdown)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "smart:pending_sectors", VerdictKind::kSmart)).ok());
  ASSERT_TRUE(svc.OnVerdict(V("wwn-2", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kSlowdown)).ok());
  const std::size_t sent = rec.got.size();

  RebaselineMark mark;
  mark.drive_id = "wwn-1";
  mark.test = "seq";
  mark.at = 1234;
  mark.who = "test";
  auto done = svc.Rebaseline(mark);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->mark.id, 1);
  EXPECT_EQ(done->mark.reason, "re-baseline requested");
  ASSERT_EQ(repo.Rebaselines().size(), 1u);
  EXPECT_EQ(repo.Rebaselines()[0].drive_id, "wwn-1");
  EXPECT_EQ(repo.Rebaselines()[0].reason, "re-baseline requested");
  // The drive's two slowdowns are one event; a re-baseline of the test of
  // one of its members closes it.
  ASSERT_EQ(done->resolved.size(), 1u);
  EXPECT_EQ(done->resolved[0].condition, "slowdown:drive");
  EXPECT_EQ(done->resolved[0].resolution, "re-baselined: re-baseline requested");
  EXPECT_EQ(done->resolved[0].resolved_at, 1234);
  EXPECT_EQ(rec.got.size(), sent);  // the owner asked: nobody is told
  std::vector<std::string> open;
  for (const auto& a : repo.All())
    if (a.state != "resolved") open.push_back(a.drive_id + " " + a.condition);
  EXPECT_EQ(open, (std::vector<std::string>{"wwn-1 smart:pending_sectors",
                                            "wwn-2 slowdown:drive"}));
}

TEST(AlertService, RemindersAckAndResolveThroughTheRepository) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertServiceOptions opt = AtOnce();
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

namespace dp {
namespace {

// A watch (a slowdown not notified until it persists) is not an alert whose
// opening a mute held: the periodic check sends it nothing.
TEST(AlertService, AWatchIsNotAnnouncedByTheReminderCheck) {
  FakeClock clock;
  InMemoryAlertRepository repo;
  Recorder rec;
  AlertService svc(repo, &rec, clock, AlertServiceOptions{});
  ASSERT_TRUE(svc.OnVerdict(V("wwn-1", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kSlowdown)).ok());
  ASSERT_EQ(repo.All().size(), 1u);
  EXPECT_EQ(repo.All()[0].notify_count, 0);
  clock.Advance(std::chrono::hours(48));
  ASSERT_TRUE(svc.CheckReminders().ok());
  EXPECT_TRUE(rec.got.empty());
}

}  // namespace
}  // namespace dp
