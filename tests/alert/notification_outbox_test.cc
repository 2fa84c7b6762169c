// The dispatcher's outbox: what it keeps, what it removes, and what a new
// dispatcher over the same outbox sends (the restart after a crash or a stop),
// with the stored form of a notification read back exactly.
#include "alert/notification_outbox.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "alert/alert_dispatcher.h"
#include "base/fake_clock.h"
#include "support/eventually.h"

namespace dp {
namespace {

using namespace std::chrono_literals;

// A sink that fails while `down` is set, recording what it delivered.
class SwitchSink : public AlertSink {
 public:
  SwitchSink(std::string name, bool down) : name_(std::move(name)), down_(down) {}
  const std::string& name() const override { return name_; }
  Status Send(const Notification& n) override {
    ++attempts;
    if (down_) return Unavailable("connection refused");
    std::lock_guard lock(mu);
    delivered.push_back(n.alert.summary);
    return Status::Ok();
  }
  std::vector<std::string> Delivered() {
    std::lock_guard lock(mu);
    return delivered;
  }
  std::atomic<int> attempts{0};

 private:
  std::string name_;
  std::atomic<bool> down_;
  std::mutex mu;
  std::vector<std::string> delivered;
};

Notification N(const std::string& summary, NotifyKind kind = NotifyKind::kOpened) {
  Alert a;
  a.id = 7;
  a.summary = summary;
  a.severity = "warning";
  a.condition = "slowdown:seq";
  return MakeNotification(kind, a, FakeClock().Now());
}

SinkPolicy Policy(int attempts, std::chrono::milliseconds retry = 10ms) {
  SinkPolicy p;
  p.max_attempts = attempts;
  p.retry_initial = retry;
  p.retry_max = retry;
  return p;
}

std::size_t Pending(InMemoryNotificationOutbox& o) { return o.Pending().value().size(); }

TEST(NotificationRecord, EveryFieldReadsBackAsWritten) {
  Alert a;
  a.id = 42;
  a.drive_id = "wwn-0x5000c500a1b2c3d4";
  a.condition = "smart:pending";
  a.severity = "critical";
  a.state = "acknowledged";
  a.summary = "sdb: 8 pending sectors \"now\"\n";
  a.evidence_json = R"({"before":0,"after":8})";
  a.opened_at = 1700000000;
  a.updated_at = 1700000100;
  a.acknowledged_at = 1700000050;
  a.last_notified_at = 1700000060;
  a.notify_count = 3;
  a.clear_streak = 1;
  a.resolution = "";
  Notification n = MakeNotification(NotifyKind::kEscalated, a, FromUnixSeconds(1700000200), "nas1");
  n.drive_name = "sdb";
  auto back = DecodeNotification(EncodeNotification(n));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->kind, NotifyKind::kEscalated);
  EXPECT_EQ(back->drive_name, "sdb");
  EXPECT_EQ(back->host, "nas1");
  EXPECT_EQ(ToUnixSeconds(back->at), 1700000200);
  const Alert& b = back->alert;
  EXPECT_EQ(b.id, 42);
  EXPECT_EQ(b.drive_id, a.drive_id);
  EXPECT_EQ(b.condition, a.condition);
  EXPECT_EQ(b.severity, a.severity);
  EXPECT_EQ(b.state, a.state);
  EXPECT_EQ(b.summary, a.summary);
  EXPECT_EQ(b.evidence_json, a.evidence_json);
  EXPECT_EQ(b.opened_at, a.opened_at);
  EXPECT_EQ(b.updated_at, a.updated_at);
  EXPECT_EQ(b.acknowledged_at, a.acknowledged_at);
  EXPECT_EQ(b.resolved_at, std::nullopt);
  EXPECT_EQ(b.last_notified_at, a.last_notified_at);
  EXPECT_EQ(b.notify_count, 3);
  EXPECT_EQ(b.clear_streak, 1);
  // What the sinks render is therefore the same as before the restart.
  EXPECT_EQ(back->Title(), n.Title());
  EXPECT_EQ(back->Text(), n.Text());
}

TEST(NotificationRecord, WhatItDidNotWriteIsRefusedWithTheReason) {
  const std::string good = EncodeNotification(N("x"));
  EXPECT_FALSE(DecodeNotification("").ok());
  EXPECT_FALSE(DecodeNotification("[1,2]").ok());
  EXPECT_FALSE(DecodeNotification(good.substr(0, good.size() / 2)).ok());
  auto j = nlohmann::json::parse(good);
  j["kind"] = "exploded";
  auto bad_kind = DecodeNotification(j.dump());
  ASSERT_FALSE(bad_kind.ok());
  EXPECT_NE(bad_kind.status().message().find("'kind'"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["alert"]["opened_at"] = "yesterday";
  auto bad_time = DecodeNotification(j.dump());
  ASSERT_FALSE(bad_time.ok());
  EXPECT_NE(bad_time.status().message().find("'opened_at'"), std::string::npos);
  j = nlohmann::json::parse(good);
  j.erase("alert");
  EXPECT_FALSE(DecodeNotification(j.dump()).ok());
}

TEST(NotificationOutboxTest, DeliveredAndGivenUpNotificationsLeaveTheOutbox) {
  InMemoryNotificationOutbox outbox;
  AlertDispatcher d;
  auto up = std::make_unique<SwitchSink>("up", false);
  auto down = std::make_unique<SwitchSink>("down", true);
  SwitchSink* u = up.get();
  SwitchSink* dn = down.get();
  d.AddSink(std::move(up), Policy(1));
  d.AddSink(std::move(down), Policy(2));
  d.SetOutbox(&outbox);
  d.Start();
  d.Submit(N("one"));
  ASSERT_TRUE(d.WaitIdle(5s));
  EXPECT_EQ(u->Delivered(), std::vector<std::string>{"one"});
  EXPECT_EQ(dn->attempts, 2);
  EXPECT_EQ(Pending(outbox), 0u);  // delivered to one, given up by the other
  EXPECT_EQ(d.Stats()[1].failed, 1u);
}

TEST(NotificationOutboxTest, WhatIsOwedAtStopIsSentByTheNextDispatcherInOrder) {
  InMemoryNotificationOutbox outbox;
  {
    AlertDispatcher d;
    auto sink = std::make_unique<SwitchSink>("hook", true);
    SwitchSink* s = sink.get();
    d.AddSink(std::move(sink), Policy(100, 10s));  // stuck in its first retry wait
    d.SetOutbox(&outbox);
    d.Start();
    d.Submit(N("first"));
    d.Submit(N("second"));
    ASSERT_TRUE(testing::Eventually([&] { return s->attempts >= 1; }, 5s));
    d.Stop();
    EXPECT_EQ(d.Stats()[0].dropped, 0u);  // kept, not lost
  }
  // "first" was in flight, "second" queued: both are still owed.
  ASSERT_EQ(Pending(outbox), 2u);

  AlertDispatcher again;
  auto sink = std::make_unique<SwitchSink>("hook", false);
  SwitchSink* s = sink.get();
  again.AddSink(std::move(sink), Policy(1));
  again.SetOutbox(&outbox);
  again.Start();
  ASSERT_TRUE(testing::Eventually([&] { return s->Delivered().size() == 2; }, 5s));
  ASSERT_TRUE(again.WaitIdle(5s));
  EXPECT_EQ(s->Delivered(), (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(again.Stats()[0].restored, 2u);
  EXPECT_EQ(Pending(outbox), 0u);
}

TEST(NotificationOutboxTest, EntriesOfASinkNoLongerConfiguredOrUnreadableAreDropped) {
  InMemoryNotificationOutbox outbox;
  ASSERT_TRUE(outbox.Add("removed-sink", EncodeNotification(N("orphan"))).ok());
  ASSERT_TRUE(outbox.Add("hook", "not json").ok());
  ASSERT_TRUE(outbox.Add("hook", EncodeNotification(N("kept"))).ok());
  AlertDispatcher d;
  auto sink = std::make_unique<SwitchSink>("hook", false);
  SwitchSink* s = sink.get();
  d.AddSink(std::move(sink), Policy(1));
  d.SetOutbox(&outbox);
  d.Start();
  ASSERT_TRUE(testing::Eventually([&] { return s->Delivered().size() == 1; }, 5s));
  ASSERT_TRUE(d.WaitIdle(5s));
  EXPECT_EQ(s->Delivered(), std::vector<std::string>{"kept"});
  EXPECT_EQ(Pending(outbox), 0u);
}

TEST(NotificationOutboxTest, TestMessagesAreNotKeptAndAFullQueueRemovesWhatItPushesOut) {
  InMemoryNotificationOutbox outbox;
  AlertDispatcher d;
  auto sink = std::make_unique<SwitchSink>("hook", true);
  SinkPolicy p = Policy(100, 10s);
  p.queue_capacity = 3;
  d.AddSink(std::move(sink), p);
  d.SetOutbox(&outbox);
  // Not started: everything stays queued.
  d.Submit(N("test", NotifyKind::kTest));
  EXPECT_EQ(Pending(outbox), 0u);
  d.Submit(N("a"));
  d.Submit(N("b"));
  d.Submit(N("c"));  // pushes out the test message
  d.Submit(N("d"));  // pushes out "a"
  auto left = outbox.Pending().value();
  ASSERT_EQ(left.size(), 3u);  // b, c and d; "a" went with the queue
  EXPECT_EQ(DecodeNotification(left[0].body)->alert.summary, "b");
  EXPECT_EQ(DecodeNotification(left[2].body)->alert.summary, "d");
}

// An outbox that refuses (a full or read-only disk) must not stop delivery.
class RefusingOutbox final : public NotificationOutbox {
 public:
  Result<std::int64_t> Add(const std::string&, const std::string&) override {
    return ResourceExhausted("database or disk is full");
  }
  Status Remove(std::int64_t) override { return Status::Ok(); }
  Result<std::vector<OutboxEntry>> Pending() override { return Unavailable("disk gone"); }
};

TEST(NotificationOutboxTest, AnOutboxThatCannotWriteStillLetsNotificationsThrough) {
  RefusingOutbox outbox;
  AlertDispatcher d;
  auto sink = std::make_unique<SwitchSink>("hook", false);
  SwitchSink* s = sink.get();
  d.AddSink(std::move(sink), Policy(1));
  d.SetOutbox(&outbox);
  d.Start();  // cannot read what was left: logged, starts anyway
  d.Submit(N("through"));
  ASSERT_TRUE(d.WaitIdle(5s));
  EXPECT_EQ(s->Delivered(), std::vector<std::string>{"through"});
}

}  // namespace
}  // namespace dp
