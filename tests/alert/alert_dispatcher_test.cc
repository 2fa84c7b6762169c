#include "alert/alert_dispatcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "base/fake_clock.h"

namespace dp {
namespace {

using namespace std::chrono_literals;

// A sink that fails its first `failures` attempts, optionally slowly.
class FakeSink : public AlertSink {
 public:
  FakeSink(std::string name, int failures, std::chrono::milliseconds delay = 0ms)
      : name_(std::move(name)), failures_(failures), delay_(delay) {}
  const std::string& name() const override { return name_; }
  Status Send(const Notification& n) override {
    std::this_thread::sleep_for(delay_);
    ++attempts;
    if (attempts <= failures_) return Unavailable("HTTP 500");
    std::lock_guard lock(mu);
    delivered.push_back(n.alert.summary);
    return Status::Ok();
  }
  std::atomic<int> attempts{0};
  std::mutex mu;
  std::vector<std::string> delivered;

 private:
  std::string name_;
  int failures_;
  std::chrono::milliseconds delay_;
};

Notification N(const std::string& summary, const std::string& severity = "warning") {
  Alert a;
  a.summary = summary;
  a.severity = severity;
  return MakeNotification(NotifyKind::kOpened, a, FakeClock().Now());
}

SinkPolicy Fast(int attempts) {
  SinkPolicy p;
  p.max_attempts = attempts;
  p.retry_initial = 10ms;
  p.retry_max = 40ms;
  return p;
}

TEST(AlertDispatcher, RetriesWithBackoffThenDelivers) {
  AlertDispatcher d;
  auto sink = std::make_unique<FakeSink>("flaky", 2);
  FakeSink* s = sink.get();
  d.AddSink(std::move(sink), Fast(4));
  d.Start();
  d.Submit(N("one"));
  ASSERT_TRUE(d.WaitIdle(5s));
  EXPECT_EQ(s->attempts, 3);
  EXPECT_EQ(s->delivered, std::vector<std::string>{"one"});
  auto st = d.Stats();
  EXPECT_EQ(st[0].sent, 1u);
  EXPECT_EQ(st[0].attempts_failed, 2u);
  EXPECT_EQ(st[0].last_error, "");
}

TEST(AlertDispatcher, GivesUpAfterMaxAttempts) {
  AlertDispatcher d;
  auto sink = std::make_unique<FakeSink>("down", 1000);
  FakeSink* s = sink.get();
  d.AddSink(std::move(sink), Fast(3));
  d.Start();
  d.Submit(N("lost"));
  ASSERT_TRUE(d.WaitIdle(5s));
  EXPECT_EQ(s->attempts, 3);
  EXPECT_EQ(d.Stats()[0].failed, 1u);
  EXPECT_NE(d.Stats()[0].last_error.find("HTTP 500"), std::string::npos);
}

TEST(AlertDispatcher, SlowSinkNeverBlocksTheCallerNorOtherSinks) {
  AlertDispatcher d;
  auto slow = std::make_unique<FakeSink>("slow", 0, 1500ms);
  auto fast = std::make_unique<FakeSink>("fast", 0);
  FakeSink* f = fast.get();
  SinkPolicy p = Fast(1);
  p.queue_capacity = 2;
  d.AddSink(std::move(slow), p);
  d.AddSink(std::move(fast), p);
  d.Start();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i) d.Submit(N("n" + std::to_string(i)));
  auto submit_time = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(submit_time, 200ms);  // Submit only queues
  // The fast sink got what fitted in its queue while the slow one still works.
  for (int i = 0; i < 100 && f->attempts < 2; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_GE(f->attempts, 2);
  auto stats = d.Stats();
  EXPECT_EQ(stats[0].name, "slow");
  EXPECT_GE(stats[0].dropped, 1u);  // 5 into a queue of 2 behind a busy sink
  d.Stop();                         // does not wait for the slow sink's queue
}

TEST(AlertDispatcher, MinSeverityFiltersButTestsAlwaysGo) {
  AlertDispatcher d;
  auto sink = std::make_unique<FakeSink>("crit-only", 0);
  FakeSink* s = sink.get();
  SinkPolicy p = Fast(1);
  p.min_severity = Severity::kCritical;
  d.AddSink(std::move(sink), p);
  d.Start();
  d.Submit(N("warn", "warning"));
  d.Submit(N("crit", "critical"));
  d.Submit(MakeTestNotification(FakeClock().Now()));
  ASSERT_TRUE(d.WaitIdle(5s));
  std::lock_guard lock(s->mu);
  EXPECT_EQ(s->delivered, (std::vector<std::string>{"crit", "diskpulse test notification"}));
}

TEST(AlertDispatcher, SendTestReportsEverySink) {
  AlertDispatcher d;
  d.AddSink(std::make_unique<FakeSink>("good", 0), Fast(1));
  d.AddSink(std::make_unique<FakeSink>("bad", 1000), Fast(1));
  auto results = d.SendTest(MakeTestNotification(FakeClock().Now()));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].sink, "good");
  EXPECT_TRUE(results[0].status.ok());
  EXPECT_EQ(results[1].sink, "bad");
  EXPECT_FALSE(results[1].status.ok());
}

TEST(AlertDispatcher, StopDuringBackoffReturnsPromptly) {
  AlertDispatcher d;
  SinkPolicy p;
  p.max_attempts = 5;
  p.retry_initial = 60s;
  d.AddSink(std::make_unique<FakeSink>("down", 1000), p);
  d.Start();
  d.Submit(N("x"));
  std::this_thread::sleep_for(50ms);
  auto t0 = std::chrono::steady_clock::now();
  d.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

}  // namespace
}  // namespace dp
