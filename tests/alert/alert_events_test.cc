#include "alert/alert_events.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "base/fake_clock.h"
#include "model/condition.h"

namespace dp {
namespace {

using std::chrono::hours;

Verdict V(const std::string& drive, const std::string& condition, VerdictKind kind,
          Severity sev = Severity::kWarning, double change = 20) {
  Verdict v;
  v.drive_id = drive;
  v.drive_name = drive;
  v.condition = condition;
  v.kind = kind;
  v.severity = kind == VerdictKind::kClear ? Severity::kInfo : sev;
  v.change_percent = change;
  const auto first = condition.find(':');
  v.test = condition.substr(first + 1, condition.find(':', first + 1) - first - 1);
  v.summary = drive + " " + condition + " " + std::string(VerdictKindName(kind));
  return v;
}

// Alerts kept as a store would, notifications recorded.
struct Book {
  std::map<std::pair<std::string, std::string>, Alert> alerts;  // every alert, by key while active
  std::vector<Alert> resolved;
  std::vector<std::pair<NotifyKind, std::string>> sent;  // kind, condition
  int inserts = 0;

  Status Run(const std::vector<Verdict>& vs, SysTime now, const AlertPolicy& policy = {},
             bool urgent = false) {
    AlertLookup lookup;
    lookup.find = [this](const std::string& d, const std::string& c)
        -> Result<std::optional<Alert>> {
      auto it = alerts.find({d, c});
      if (it == alerts.end()) return std::optional<Alert>();
      return std::optional<Alert>(it->second);
    };
    lookup.urgent = [urgent](const std::string&) -> Result<bool> { return urgent; };
    lookup.last_resolved = [this](const std::string& d, const std::string& c)
        -> Result<std::optional<Alert>> {
      for (auto it = resolved.rbegin(); it != resolved.rend(); ++it)
        if (it->drive_id == d && it->condition == c) return std::optional<Alert>(*it);
      return std::optional<Alert>();
    };
    return ApplyVerdicts(vs, lookup, now, policy, [this](AlertDecision d) {
      if (d.write == AlertDecision::Write::kNothing) return Status::Ok();
      if (d.write == AlertDecision::Write::kInsert) ++inserts;
      const auto key = std::make_pair(d.alert.drive_id, d.alert.condition);
      if (d.alert.state == "resolved") {
        resolved.push_back(d.alert);
        alerts.erase(key);
      } else {
        alerts[key] = d.alert;
      }
      if (d.notify != NotifyKind::kNone) sent.emplace_back(d.notify, d.alert.condition);
      return Status::Ok();
    });
  }
  const Alert& Only() const { return alerts.begin()->second; }
};

// One drive event: the five seek strokes and their peer verdicts in one run
// are one alert with every series as a member, notified once.
TEST(AlertEvents, OneDriveEventIsOneAlertWithEverySeriesAsEvidence) {
  FakeClock clock;
  Book b;
  AlertPolicy now_policy;
  now_policy.persist_before_notify = std::chrono::seconds(0);
  std::vector<Verdict> run;
  for (const char* stroke : {"full", "half", "quarter", "short-forward", "short-backward"}) {
    run.push_back(V("wwn-1", std::string("slowdown:seek:") + stroke + ":access_ms",
                    VerdictKind::kSlowdown));
    run.push_back(V("wwn-1", std::string("peer:seek:") + stroke + ":access_ms",
                    VerdictKind::kPeerOutlier));
  }
  run[3].change_percent = 40;  // the worst member leads
  ASSERT_TRUE(b.Run(run, clock.Now(), now_policy).ok());
  ASSERT_EQ(b.alerts.size(), 1u);
  const Alert& a = b.Only();
  EXPECT_EQ(a.condition, "slowdown:drive");
  EXPECT_EQ(a.drive_id, "wwn-1");
  const auto ev = nlohmann::json::parse(a.evidence_json);
  EXPECT_EQ(a.event.members.size(), 10u);
  EXPECT_EQ(ev["condition"], "peer:seek:half:access_ms");
  EXPECT_NE(a.summary.find("with 9 more series"), std::string::npos) << a.summary;
  EXPECT_EQ(b.sent.size(), 1u);

  // Further evidence refreshes it and never opens a sibling of it.
  clock.Advance(hours(6));
  ASSERT_TRUE(b.Run({V("wwn-1", "slowdown:zones:outer:mb_per_s", VerdictKind::kSlowdown)},
                    clock.Now(), now_policy)
                  .ok());
  EXPECT_EQ(b.alerts.size(), 1u);
  EXPECT_EQ(b.inserts, 1);
  EXPECT_EQ(b.Only().event.members.size(), 11u);
  EXPECT_EQ(b.sent.size(), 1u);
}

// The event resolves when its last member has; members resolve by the
// ordinary clear streak.
TEST(AlertEvents, ResolvesWhenEveryMemberHasCleared) {
  FakeClock clock;
  Book b;
  AlertPolicy p;
  p.persist_before_notify = std::chrono::seconds(0);
  ASSERT_TRUE(b.Run({V("d", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kSlowdown),
                     V("d", "slowdown:zones:outer:mb_per_s", VerdictKind::kSlowdown)},
                    clock.Now(), p)
                  .ok());
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(b.Run({V("d", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kClear)}, clock.Now(), p)
                    .ok());
  ASSERT_EQ(b.alerts.size(), 1u) << "zones still fires";
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(
        b.Run({V("d", "slowdown:zones:outer:mb_per_s", VerdictKind::kClear)}, clock.Now(), p).ok());
  EXPECT_TRUE(b.alerts.empty());
  ASSERT_EQ(b.resolved.size(), 1u);
  EXPECT_EQ(b.sent.back().first, NotifyKind::kResolved);
}

// Housekeeping: a non-critical slowdown opens as a watch; gone by the next
// scheduled run, it resolves without a notification ever going out.
TEST(AlertEvents, ASlowdownThatDoesNotPersistIsNeverNotified) {
  FakeClock clock;
  Book b;
  ASSERT_TRUE(b.Run({V("d", "slowdown:random:qd1-4k:iops", VerdictKind::kSlowdown),
                     V("d", "peer:random:qd1-4k:iops", VerdictKind::kPeerOutlier)},
                    clock.Now())
                  .ok());
  ASSERT_EQ(b.alerts.size(), 1u);
  EXPECT_EQ(b.Only().notify_count, 0);
  EXPECT_TRUE(b.sent.empty());
  // No reminder for a watch either.
  clock.Advance(hours(24 * 3));
  EXPECT_EQ(CheckReminder(b.Only(), clock.Now(), AlertPolicy{}).notify, NotifyKind::kNone);
  for (int week = 1; week <= 3; ++week) {
    clock.Advance(hours(24 * 7));
    ASSERT_TRUE(b.Run({V("d", "slowdown:random:qd1-4k:iops", VerdictKind::kClear),
                       V("d", "peer:random:qd1-4k:iops", VerdictKind::kClear)},
                      clock.Now())
                    .ok());
  }
  EXPECT_TRUE(b.alerts.empty());
  ASSERT_EQ(b.resolved.size(), 1u);
  EXPECT_TRUE(b.sent.empty());
}

// A week later unseen interference hit the scheduled run, so the pair is a
// held doubt again; its clean re-test still stands out (the judge's
// "stands_out"): the change persists and the watch is notified. A held doubt
// without it keeps waiting.
TEST(AlertEvents, AHeldDoubtWhoseOwnRunStandsOutKeepsTheWatchGoing) {
  FakeClock clock;
  Book b;
  const Verdict slow = V("d", "slowdown:zones:combined:mb_per_s", VerdictKind::kSlowdown);
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());
  EXPECT_TRUE(b.sent.empty());
  clock.Advance(hours(24 * 7));
  Verdict held = V("d", "slowdown:zones:combined:mb_per_s", VerdictKind::kNeedsConfirmation,
                   Severity::kInfo);
  ASSERT_TRUE(b.Run({held}, clock.Now()).ok());
  EXPECT_TRUE(b.sent.empty());
  EXPECT_EQ(b.Only().notify_count, 0);
  clock.Advance(hours(6));
  // As detect gives it (Judge::Hold): standing out, at warning.
  held.stands_out = true;
  held.severity = Severity::kWarning;
  ASSERT_TRUE(b.Run({held}, clock.Now()).ok());
  ASSERT_EQ(b.sent.size(), 1u);
  EXPECT_EQ(b.sent[0].first, NotifyKind::kOpened);
  EXPECT_EQ(b.Only().notify_count, 1);
}

// With no watch open it opens nothing: a doubt is never an alert.
TEST(AlertEvents, AHeldDoubtThatStandsOutOpensNothingAlone) {
  FakeClock clock;
  Book b;
  Verdict held = V("d", "slowdown:zones:combined:mb_per_s", VerdictKind::kNeedsConfirmation,
                   Severity::kInfo);
  held.stands_out = true;
  ASSERT_TRUE(b.Run({held}, clock.Now()).ok());
  EXPECT_TRUE(b.alerts.empty());
  EXPECT_TRUE(b.sent.empty());
}

// Still there at a run a day later (the next scheduled run): notified once,
// as opened.
TEST(AlertEvents, ASlowdownThatPersistsIsNotifiedOnce) {
  FakeClock clock;
  Book b;
  const Verdict slow = V("d", "slowdown:zones:outer:mb_per_s", VerdictKind::kSlowdown);
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());
  clock.Advance(hours(6));  // its re-test: not long enough to tell housekeeping apart
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());
  EXPECT_TRUE(b.sent.empty());
  clock.Advance(hours(24 * 7));
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());
  ASSERT_EQ(b.sent.size(), 1u);
  EXPECT_EQ(b.sent[0].first, NotifyKind::kOpened);
  EXPECT_EQ(b.Only().notify_count, 1);
  // Later evidence refreshes it: reminders go out, never a second opening.
  clock.Advance(hours(24 * 7));
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());
  for (std::size_t i = 1; i < b.sent.size(); ++i) EXPECT_EQ(b.sent[i].first, NotifyKind::kReminder);
}

// Housekeeping that comes back two weeks later, while the watch is still
// open (a slowdown resolves after three clear runs), is not "still there":
// the wait starts again, and a doubt in between does not undo the clear.
TEST(AlertEvents, AWatchThatClearedWaitsAgainWhenItFiresAgain) {
  FakeClock clock;
  Book b;
  const Verdict slow = V("d", "slowdown:random:qd1-4k:iops", VerdictKind::kSlowdown);
  const Verdict clear = V("d", "slowdown:random:qd1-4k:iops", VerdictKind::kClear);
  const Verdict doubt = V("d", "slowdown:random:qd1-4k:iops", VerdictKind::kNeedsConfirmation);
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());  // the re-test still in housekeeping
  clock.Advance(hours(24 * 7 - 6));
  ASSERT_TRUE(b.Run({clear}, clock.Now()).ok());  // next week: normal
  clock.Advance(hours(24 * 7));
  ASSERT_TRUE(b.Run({doubt}, clock.Now()).ok());  // housekeeping again at the run
  clock.Advance(hours(6));
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());  // and at its re-test
  ASSERT_EQ(b.alerts.size(), 1u);
  EXPECT_TRUE(b.sent.empty()) << "notified for housekeeping two weeks apart";
  EXPECT_NE(b.Only().history_json.find("fired again after clearing"), std::string::npos)
      << b.Only().history_json;
  // Still there a week later, firing all along: now it is notified.
  clock.Advance(hours(24 * 7 - 6));
  ASSERT_TRUE(b.Run({doubt}, clock.Now()).ok());
  clock.Advance(hours(6));
  ASSERT_TRUE(b.Run({slow}, clock.Now()).ok());
  ASSERT_EQ(b.sent.size(), 1u);
  EXPECT_EQ(b.sent[0].first, NotifyKind::kOpened);
}

// A watch notified later is told by the evidence that fired then, not by
// the figure it opened with (housekeeping of the random reads weeks before
// a box step of the zones).
TEST(AlertEvents, AWatchIsNotifiedWithTheEvidenceThatFiredNow) {
  FakeClock clock;
  Book b;
  Verdict housekeeping = V("d", "slowdown:random:qd1-4k:iops", VerdictKind::kSlowdown,
                           Severity::kWarning, 40);
  housekeeping.summary = "random qd1-4k IOPS dropped 40%";
  Verdict zones = V("d", "slowdown:zones:outer:mb_per_s", VerdictKind::kSlowdown,
                    Severity::kWarning, 12);
  zones.summary = "zones outer MB/s dropped 12%";
  ASSERT_TRUE(b.Run({housekeeping}, clock.Now()).ok());
  EXPECT_TRUE(b.sent.empty());
  clock.Advance(hours(24 * 7));
  ASSERT_TRUE(b.Run({zones}, clock.Now()).ok());
  ASSERT_EQ(b.sent.size(), 1u);
  EXPECT_EQ(b.Only().summary.rfind("zones outer MB/s dropped 12%", 0), 0u) << b.Only().summary;
}

// One box step is one notice: an environment event on another series weeks
// after the first resolved (a drive absorbing the step late) joins it
// quietly; a step months later is news again.
TEST(AlertEvents, ASecondBoxEventForTheSameStepIsNotToldAgain) {
  FakeClock clock;
  Book b;
  Verdict zones = V("d1", "environment:tank/raidz1-0:zones:outer:mb_per_s",
                    VerdictKind::kEnvironment);
  Verdict seek = V("d1", "environment:tank/raidz1-0:seek:full:access_ms",
                   VerdictKind::kEnvironment);
  const Verdict clear_zones = V("d1", zones.condition, VerdictKind::kClear);
  auto opened = [&] {
    return std::count_if(b.sent.begin(), b.sent.end(),
                         [](const auto& s) { return s.first == NotifyKind::kOpened; });
  };
  AlertPolicy at_once;
  at_once.persist_before_notify = std::chrono::seconds(0);
  ASSERT_TRUE(b.Run({zones}, clock.Now(), at_once).ok());
  ASSERT_EQ(opened(), 1);
  // Clear for weeks: the box's event resolves after its quiet time.
  for (int w = 0; w < 5 && !b.alerts.empty(); ++w) {
    clock.Advance(hours(24 * 7));
    ASSERT_TRUE(b.Run({clear_zones}, clock.Now(), at_once).ok());
  }
  ASSERT_TRUE(b.alerts.empty()) << "the first event never resolved: the test is moot";
  clock.Advance(hours(24 * 7 * 4));
  ASSERT_TRUE(b.Run({seek}, clock.Now(), at_once).ok());
  ASSERT_EQ(b.alerts.size(), 1u);
  EXPECT_EQ(opened(), 1) << "the same step told twice";
  EXPECT_NE(b.Only().history_json.find("joined"), std::string::npos) << b.Only().history_json;
  EXPECT_GT(b.Only().notify_count, 0) << "a joined event must not wait as a watch";
  // Resolved again, and a step half a year later is a new event.
  const Verdict clear_seek = V("d1", seek.condition, VerdictKind::kClear);
  for (int w = 0; w < 5 && !b.alerts.empty(); ++w) {
    clock.Advance(hours(24 * 7));
    ASSERT_TRUE(b.Run({clear_seek}, clock.Now(), at_once).ok());
  }
  ASSERT_TRUE(b.alerts.empty());
  clock.Advance(hours(24 * 7 * 26));
  ASSERT_TRUE(b.Run({zones}, clock.Now(), at_once).ok());
  EXPECT_EQ(opened(), 2);
}

// A drive slowing before a shift keeps its baselines only when it was told:
// a watch is absorbed with the shift.
TEST(AlertEvents, OnlyANotifiedEventIsSlowingBeforeAShift) {
  Alert a;
  a.condition = kDriveSpeedEvent;
  a.state = "open";
  a.opened_at = 100;
  a.notify_count = 0;
  EXPECT_FALSE(SlowingBefore(a, 200)) << "a watch kept its drive out of the absorption";
  a.notify_count = 1;
  EXPECT_TRUE(SlowingBefore(a, 200));
  EXPECT_FALSE(SlowingBefore(a, 50));
  a.state = "resolved";
  EXPECT_FALSE(SlowingBefore(a, 200));
}

// Critical (a 50% drop), or with a SMART alert of the drive active: at once.
TEST(AlertEvents, CriticalOrWithSmartTroubleNotifiesAtOnce) {
  FakeClock clock;
  Book b;
  ASSERT_TRUE(b.Run({V("d", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kSlowdown,
                       Severity::kCritical, 55)},
                    clock.Now())
                  .ok());
  ASSERT_EQ(b.sent.size(), 1u);
  Book c;
  ASSERT_TRUE(c.Run({V("d", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kSlowdown)},
                    clock.Now(), AlertPolicy{}, /*urgent=*/true)
                  .ok());
  EXPECT_EQ(c.sent.size(), 1u);
  // SMART alerts are not deferred at all.
  Book s;
  ASSERT_TRUE(s.Run({V("d", "smart:pending_sectors", VerdictKind::kSmart)}, clock.Now()).ok());
  EXPECT_EQ(s.sent.size(), 1u);
}

// Every environment verdict of the box, whichever vdev and series, is one
// alert filed under no drive.
TEST(AlertEvents, EnvironmentIsOneAlertPerBox) {
  FakeClock clock;
  Book b;
  std::vector<Verdict> run;
  for (const char* vdev : {"tank/raidz2-0", "tank/raidz2-1"})
    for (const char* series : {"seq:qd8-1m:mb_per_s", "zones:outer:mb_per_s"}) {
      Verdict v = V("wwn-1", std::string("environment:") + vdev + ":" + series,
                    VerdictKind::kEnvironment);
      run.push_back(v);
    }
  ASSERT_TRUE(b.Run(run, clock.Now()).ok());
  clock.Advance(hours(24 * 7));
  ASSERT_TRUE(b.Run(run, clock.Now()).ok());
  ASSERT_EQ(b.alerts.size(), 1u);
  EXPECT_EQ(b.Only().condition, "environment:box");
  EXPECT_EQ(b.Only().drive_id, "");
  EXPECT_EQ(b.sent.size(), 1u);
}

// The alert keeps what it opened with; resolution adds to it.
TEST(AlertEvents, AnAlertKeepsItsOpeningEvidenceAndHistory) {
  FakeClock clock;
  Book b;
  AlertPolicy p;
  p.persist_before_notify = std::chrono::seconds(0);
  Verdict first = V("d", "smart:pending_sectors", VerdictKind::kSmart);
  first.summary = "8 pending sectors";
  ASSERT_TRUE(b.Run({first}, clock.Now(), p).ok());
  Verdict more = first;
  more.summary = "24 pending sectors";
  clock.Advance(hours(1));
  ASSERT_TRUE(b.Run({more}, clock.Now(), p).ok());
  Verdict clear = V("d", "smart:pending_sectors", VerdictKind::kClear);
  clear.summary = "0 pending sectors";
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(b.Run({clear}, clock.Now(), p).ok());
  ASSERT_EQ(b.resolved.size(), 1u);
  const Alert& a = b.resolved[0];
  EXPECT_EQ(a.opened_summary, "8 pending sectors");
  EXPECT_NE(a.opened_evidence_json.find("8 pending sectors"), std::string::npos);
  EXPECT_EQ(a.summary, "24 pending sectors");  // not overwritten by the clear
  EXPECT_EQ(a.resolution, "cleared: 0 pending sectors");
  const auto h = nlohmann::json::parse(a.history_json);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0]["what"], "opened");
  EXPECT_EQ(h[1]["what"], "refreshed");
  EXPECT_EQ(h[2]["what"], "resolved");
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

// One decline of a drive seen by three rules (its own baseline, the trend
// over months, its siblings) is one problem: one alert, one notification,
// each rule's series a member, and words that speak of all three.
TEST(AlertEvents, OneDeclineSeenByThreeRulesIsOneAlert) {
  FakeClock clock;
  Book b;
  Verdict slow = V("wwn-b", "slowdown:seq:qd8-1m:mb_per_s", VerdictKind::kSlowdown,
                   Severity::kWarning, 11);
  slow.drive_name = "sdb";
  slow.metric = "mb_per_s";
  Verdict trend = V("wwn-b", "trend:seq:qd8-1m:mb_per_s", VerdictKind::kTrend);
  trend.drive_name = "sdb";
  trend.change_percent.reset();
  trend.slope_percent_per_month = 2.5;
  Verdict peer = V("wwn-b", "peer:seq:qd8-1m:mb_per_s", VerdictKind::kPeerOutlier,
                   Severity::kWarning, 12);
  peer.drive_name = "sdb";
  peer.metric = "mb_per_s";
  ASSERT_TRUE(b.Run({slow, peer, trend}, clock.Now()).ok());
  ASSERT_EQ(b.alerts.size(), 1u);
  const Alert& a = b.Only();
  EXPECT_EQ(a.condition, kDriveSpeedEvent);
  EXPECT_EQ(b.inserts, 1);
  ASSERT_EQ(b.sent.size(), 1u) << "one decline, one notification";
  EXPECT_EQ(b.sent[0].first, NotifyKind::kOpened) << "a trend rests on months: told at once";
  std::set<ConditionKind> kinds;
  for (const AlertMember& m : a.event.members) kinds.insert(ConditionKindOf(m.condition));
  EXPECT_EQ(kinds, (std::set<ConditionKind>{ConditionKind::kSlowdown, ConditionKind::kTrend,
                                            ConditionKind::kPeer}));
  EXPECT_EQ(a.words.headline,
            "sdb reads 11% slower than it used to (12% behind its siblings), and slower each "
            "month");
  EXPECT_EQ(a.words.confidence, "Sure (3 rules, under an hour)");
  EXPECT_NE(a.words.advice.find("self-test"), std::string::npos) << a.words.advice;
  EXPECT_EQ(a.summary.find("Theil-Sen"), std::string::npos);
}

}  // namespace
}  // namespace dp
