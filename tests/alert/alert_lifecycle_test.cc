#include "alert/alert_lifecycle.h"

#include <gtest/gtest.h>

#include "base/fake_clock.h"

namespace dp {
namespace {

using std::chrono::hours;

Verdict V(VerdictKind kind, Severity sev = Severity::kWarning) {
  Verdict v;
  v.drive_id = "wwn-1";
  v.drive_name = "sda";
  v.condition = "slowdown:seq:qd8-1m:mb_per_s";
  v.kind = kind;
  v.severity = sev;
  v.summary = std::string("sda: ") + std::string(VerdictKindName(kind));
  return v;
}

// The lifecycle with slowdown alerts notified at once (no watch), as the
// generic rules below are written for.
AlertPolicy AtOnce() {
  AlertPolicy p;
  p.persist_before_notify = std::chrono::seconds(0);
  return p;
}

// Applies decisions like a store would.
struct Book {
  std::optional<Alert> active;
  std::vector<NotifyKind> sent;
  void Apply(const AlertDecision& d) {
    if (d.write != AlertDecision::Write::kNothing) {
      active = d.alert;
      if (d.write == AlertDecision::Write::kInsert) active->id = 1;
      if (active->state == "resolved") active.reset();
    }
    if (d.notify != NotifyKind::kNone) sent.push_back(d.notify);
  }
};

TEST(AlertLifecycle, OpensOnceThenUpdatesWithoutDuplicates) {
  FakeClock clock;
  AlertPolicy policy = AtOnce();
  Book b;
  b.Apply(Update(b.active, V(VerdictKind::kSlowdown), clock.Now(), policy));
  ASSERT_TRUE(b.active);
  EXPECT_EQ(b.active->state, "open");
  EXPECT_EQ(b.active->severity, "warning");
  EXPECT_EQ(b.active->notify_count, 1);
  EXPECT_NE(b.active->evidence_json.find("\"kind\":\"slowdown\""), std::string::npos);
  clock.Advance(hours(2));
  AlertDecision again = Update(b.active, V(VerdictKind::kSlowdown), clock.Now(), policy);
  EXPECT_EQ(again.write, AlertDecision::Write::kUpdate);  // never a second insert
  EXPECT_EQ(again.notify, NotifyKind::kNone);
  b.Apply(again);
  EXPECT_EQ(b.sent, std::vector<NotifyKind>{NotifyKind::kOpened});
}

TEST(AlertLifecycle, NonFiringVerdictsWithoutAlertDoNothing) {
  FakeClock clock;
  for (auto k : {VerdictKind::kClear, VerdictKind::kNeedsConfirmation, VerdictKind::kBaselining,
                 VerdictKind::kInconclusive}) {
    AlertDecision d = Update(std::nullopt, V(k), clock.Now(), AtOnce());
    EXPECT_EQ(d.write, AlertDecision::Write::kNothing);
    EXPECT_EQ(d.notify, NotifyKind::kNone);
  }
}

TEST(AlertLifecycle, RemindersDiminish1_2_4_8Days) {
  FakeClock clock;
  AlertPolicy policy = AtOnce();
  Book b;
  const SysTime t0 = clock.Now();
  b.Apply(Update(b.active, V(VerdictKind::kSlowdown), clock.Now(), policy));
  std::vector<double> reminder_days;
  for (int h = 1; h <= 24 * 20; ++h) {
    clock.Advance(hours(1));
    AlertDecision d = CheckReminder(*b.active, clock.Now(), policy);
    if (d.notify == NotifyKind::kReminder)
      reminder_days.push_back(std::chrono::duration<double>(clock.Now() - t0).count() / 86400);
    b.Apply(d);
  }
  // 1 day after opening, then 2 more, 4 more, 8 more: days 1, 3, 7, 15.
  EXPECT_EQ(reminder_days, (std::vector<double>{1, 3, 7, 15}));
  EXPECT_EQ(b.active->notify_count, 5);
}

TEST(AlertLifecycle, ReminderIntervalIsCappedAndCanBeOff) {
  AlertPolicy policy = AtOnce();
  policy.max_reminder = hours(48);
  Alert a;
  a.state = "open";
  a.opened_at = 0;
  a.last_notified_at = 1000;
  a.notify_count = 10;  // 2^9 days uncapped
  EXPECT_EQ(ToUnixSeconds(*NextReminderAt(a, policy)), 1000 + 48 * 3600);
  policy.max_reminder = std::chrono::seconds(0);
  EXPECT_FALSE(NextReminderAt(a, policy));
}

TEST(AlertLifecycle, AcknowledgedAlertsGetNoReminders) {
  FakeClock clock;
  AlertPolicy policy = AtOnce();
  Book b;
  b.Apply(Update(b.active, V(VerdictKind::kSlowdown), clock.Now(), policy));
  auto ack = Acknowledge(*b.active, clock.Now());
  ASSERT_TRUE(ack.ok());
  b.Apply(*ack);
  EXPECT_EQ(b.active->state, "acknowledged");
  EXPECT_TRUE(b.active->acknowledged_at);
  clock.Advance(hours(24 * 30));
  EXPECT_EQ(CheckReminder(*b.active, clock.Now(), policy).notify, NotifyKind::kNone);
  EXPECT_EQ(Update(b.active, V(VerdictKind::kSlowdown), clock.Now(), policy).notify,
            NotifyKind::kNone);
  // Acknowledging twice is harmless.
  auto again = Acknowledge(*b.active, clock.Now());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->write, AlertDecision::Write::kNothing);
}

TEST(AlertLifecycle, AutoResolvesAfterNClearRunsAndDoubtsResetTheStreak) {
  FakeClock clock;
  AlertPolicy policy = AtOnce();  // 3 clear runs
  Book b;
  b.Apply(Update(b.active, V(VerdictKind::kSlowdown), clock.Now(), policy));
  b.Apply(Update(b.active, V(VerdictKind::kClear), clock.Now(), policy));
  b.Apply(Update(b.active, V(VerdictKind::kClear), clock.Now(), policy));
  EXPECT_EQ(b.active->clear_streak, 2);
  b.Apply(Update(b.active, V(VerdictKind::kNeedsConfirmation), clock.Now(), policy));
  EXPECT_EQ(b.active->clear_streak, 0);
  b.Apply(Update(b.active, V(VerdictKind::kInconclusive), clock.Now(), policy));  // no change
  b.Apply(Update(b.active, V(VerdictKind::kClear), clock.Now(), policy));
  b.Apply(Update(b.active, V(VerdictKind::kClear), clock.Now(), policy));
  ASSERT_TRUE(b.active);
  AlertDecision d = Update(b.active, V(VerdictKind::kClear), clock.Now(), policy);
  EXPECT_EQ(d.notify, NotifyKind::kResolved);
  EXPECT_EQ(d.alert.state, "resolved");
  EXPECT_TRUE(d.alert.resolved_at);
  b.Apply(d);
  EXPECT_FALSE(b.active);
  // The condition returns: a new alert.
  AlertDecision n = Update(b.active, V(VerdictKind::kSlowdown), clock.Now(), policy);
  EXPECT_EQ(n.write, AlertDecision::Write::kInsert);
  EXPECT_EQ(n.notify, NotifyKind::kOpened);
}

// A slowdown verdict as the change detector writes it: the run's value and
// the single-run band of the baseline it was judged against.
Verdict Judged(VerdictKind kind, double current, double low, double high,
               const char* direction = "higher_is_better") {
  Verdict v = V(kind);
  v.current = current;
  v.band_low = low;
  v.band_high = high;
  // The metric says which way is worse, as a judged verdict's does.
  v.metric = std::string(direction) == "lower_is_better" ? "p99_us" : "mb_per_s";
  v.details["direction"] = direction;
  return v;
}

TEST(AlertLifecycle, ASlowdownResolvesOnlyOnRunsBackInsideTheBandItFiredWith) {
  FakeClock clock;
  AlertPolicy policy = AtOnce();  // 3 clear runs
  Book b;
  // Fired against a baseline whose band is 232-380 MB/s.
  b.Apply(Update(b.active, Judged(VerdictKind::kSlowdown, 172, 232, 380), clock.Now(), policy));
  ASSERT_TRUE(b.active);
  // The detector's baseline moved (wider, lower): its clear verdicts of runs
  // still below 232 are doubts, not clear runs.
  b.Apply(Update(b.active, Judged(VerdictKind::kClear, 280, 136, 509), clock.Now(), policy));
  EXPECT_EQ(b.active->clear_streak, 1);
  b.Apply(Update(b.active, Judged(VerdictKind::kClear, 211, 140, 480), clock.Now(), policy));
  EXPECT_EQ(b.active->clear_streak, 0);
  b.Apply(Update(b.active, Judged(VerdictKind::kClear, 241, 178, 376), clock.Now(), policy));
  b.Apply(Update(b.active, Judged(VerdictKind::kClear, 267, 138, 458), clock.Now(), policy));
  ASSERT_TRUE(b.active) << "two runs back inside are not three";
  // The third run in a row back inside 232-380 resolves it.
  AlertDecision d =
      Update(b.active, Judged(VerdictKind::kClear, 233, 140, 470), clock.Now(), policy);
  EXPECT_EQ(d.notify, NotifyKind::kResolved);

  // A time (lower is better) fired above its band's high edge.
  Book t;
  const char* lower = "lower_is_better";
  t.Apply(Update(t.active, Judged(VerdictKind::kSlowdown, 40000, 22000, 27000, lower),
                 clock.Now(), policy));
  t.Apply(Update(t.active, Judged(VerdictKind::kClear, 30000, 20000, 40000, lower),
                 clock.Now(), policy));
  EXPECT_EQ(t.active->clear_streak, 0);
  t.Apply(Update(t.active, Judged(VerdictKind::kClear, 26000, 20000, 40000, lower),
                 clock.Now(), policy));
  EXPECT_EQ(t.active->clear_streak, 1);

  // Other conditions (here a trend) resolve on clear verdicts as they come.
  Book other;
  Verdict trend = Judged(VerdictKind::kSlowdown, 172, 232, 380);
  trend.condition = "trend:seq:qd8-1m:mb_per_s";
  other.Apply(Update(other.active, trend, clock.Now(), policy));
  Verdict clear = Judged(VerdictKind::kClear, 200, 150, 400);
  clear.condition = trend.condition;
  other.Apply(Update(other.active, clear, clock.Now(), policy));
  EXPECT_EQ(other.active->clear_streak, 1);
}

TEST(AlertLifecycle, HigherSeverityEscalates) {
  FakeClock clock;
  AlertPolicy policy = AtOnce();
  Book b;
  b.Apply(Update(b.active, V(VerdictKind::kSlowdown, Severity::kWarning), clock.Now(), policy));
  AlertDecision d =
      Update(b.active, V(VerdictKind::kSlowdown, Severity::kCritical), clock.Now(), policy);
  EXPECT_EQ(d.notify, NotifyKind::kEscalated);
  EXPECT_EQ(d.alert.severity, "critical");
  b.Apply(d);
  // A milder verdict later does not lower it.
  d = Update(b.active, V(VerdictKind::kSlowdown, Severity::kWarning), clock.Now(), policy);
  EXPECT_EQ(d.alert.severity, "critical");
  EXPECT_EQ(d.notify, NotifyKind::kNone);
}

TEST(AlertLifecycle, ResolvedAlertCannotBeAcknowledged) {
  Alert a;
  a.id = 7;
  a.state = "resolved";
  auto r = Acknowledge(a, FakeClock().Now());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace dp
