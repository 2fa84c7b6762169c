// AlertDispatcher: delivers notifications to the sinks off the caller's
// thread. Each sink has its own worker thread and bounded queue, so a slow or
// failing sink never blocks the caller (the scheduler) nor the other sinks:
// Submit only takes a lock and appends. A failed attempt is logged and
// retried after a backoff that doubles up to a cap; after max_attempts the
// notification is dropped with an error in the log. A full queue drops its
// oldest notification (logged). Notifications below a sink's min_severity
// are not queued for it (tests always are).
//
// With an outbox (SetOutbox), every alert notification queued for a sink is
// also written there and removed once the sink has it, gives up on it or
// the queue pushes it out; Start queues whatever an earlier run left there
// (a crash, or notifications still waiting at Stop), in their order, for the
// sinks still configured. Without one, what is queued at Stop is lost.
//
// Owned by the composition root; AddSink and SetOutbox before Start; Stop
// (or the destructor) ends the workers, abandoning pending retries (kept in
// the outbox when there is one). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "alert/alert_sink.h"
#include "alert/notification.h"
#include "alert/notification_outbox.h"
#include "base/thread_annotations.h"
#include "model/verdict.h"

namespace dp {

struct SinkPolicy {
  int max_attempts = 4;                            // 1 = no retry
  std::chrono::milliseconds retry_initial{5'000};  // doubles each retry
  std::chrono::milliseconds retry_max{300'000};
  Severity min_severity = Severity::kInfo;
  std::size_t queue_capacity = 256;
};

struct SinkStats {
  std::string name;
  std::uint64_t sent = 0;    // delivered
  std::uint64_t failed = 0;  // given up after max_attempts
  std::uint64_t attempts_failed = 0;
  std::uint64_t dropped = 0;  // pushed out of a full queue, or left at Stop without an outbox
  std::uint64_t restored = 0;  // taken from the outbox at Start
  std::size_t queued = 0;     // waiting now (the one in flight excluded)
  bool in_flight = false;     // one is being sent or waiting for its retry
  std::string last_error;     // "" when the last attempt succeeded
};

struct SinkTestResult {
  std::string sink;
  Status status;
};

class AlertDispatcher final : public Notifier {
 public:
  AlertDispatcher() = default;
  ~AlertDispatcher() override;
  AlertDispatcher(const AlertDispatcher&) = delete;
  AlertDispatcher& operator=(const AlertDispatcher&) = delete;

  void AddSink(std::unique_ptr<AlertSink> sink, SinkPolicy policy);
  // Before Start; the outbox must outlive the dispatcher.
  void SetOutbox(NotificationOutbox* outbox);
  void Start();
  // Never blocks on delivery.
  void Submit(const Notification& n) override;
  // Ends the workers; a notification being sent finishes its attempt first.
  void Stop();

  // Sends n to every sink now, one attempt each, on the calling thread (for
  // `diskpulse alerts test`: the caller wants each sink's answer). Sinks are
  // tried one after the other; each attempt is bounded by the sink's timeout.
  std::vector<SinkTestResult> SendTest(const Notification& n);

  std::vector<SinkStats> Stats() const;
  // Waits until every queue is empty and no attempt is in flight (tests).
  bool WaitIdle(std::chrono::milliseconds timeout);

 private:
  struct Queued {
    Notification n;
    std::int64_t outbox_id = 0;  // 0: not in the outbox
  };
  struct Lane {
    std::unique_ptr<AlertSink> sink;
    SinkPolicy policy;
    std::deque<Queued> queue;
    bool busy = false;
    SinkStats stats;
    std::thread worker;
  };
  void Work(Lane* lane);
  // Queues q on the lane, pushing out the oldest when full; returns the
  // outbox id of the one pushed out (0 if none or not in the outbox).
  std::int64_t PushLocked(Lane& lane, Queued q);
  void RestoreFromOutbox();
  void RemoveFromOutbox(std::int64_t id);

  mutable Mutex mu_;
  std::condition_variable cv_;       // queue changes, stop
  std::condition_variable idle_cv_;  // a lane went idle
  std::vector<std::unique_ptr<Lane>> lanes_ GUARDED_BY(mu_);
  NotificationOutbox* outbox_ = nullptr;
  bool started_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
};

}  // namespace dp
