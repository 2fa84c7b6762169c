// NotificationOutbox: where the dispatcher keeps each notification it has
// accepted for a sink until the sink has it (or the dispatcher gave up on
// it), so that a daemon killed with notifications still queued or waiting
// for a retry sends them after its restart instead of dropping them. The
// daemon implements it over the store (runs/store_notification_outbox.h;
// the alert module may not include the store, a sibling);
// InMemoryNotificationOutbox serves tests. Implementations must be
// thread-safe.
//
// Delivery is at least once: a daemon killed between a sink's success and
// the removal of its entry sends that notification again after the restart.
// Receivers that must not show it twice can key on the alert id, event and
// time that every rendering carries.
//
// The stored form (EncodeNotification) is a JSON document of the
// notification's own fields, the alert as it was when the notification was
// made: a retried "opened" message says what it said before the restart.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "alert/notification.h"
#include "base/result.h"
#include "base/thread_annotations.h"

namespace dp {

struct OutboxEntry {
  std::int64_t id = 0;  // assigned by the outbox, increasing
  std::string sink;     // the sink's name (AlertSink::name)
  std::string body;     // EncodeNotification
};

class NotificationOutbox {
 public:
  virtual ~NotificationOutbox() = default;
  // Returns the new entry's id.
  virtual Result<std::int64_t> Add(const std::string& sink, const std::string& body) = 0;
  // Removing an id that is not there is not an error.
  virtual Status Remove(std::int64_t id) = 0;
  // Every entry, oldest first.
  virtual Result<std::vector<OutboxEntry>> Pending() = 0;
};

class InMemoryNotificationOutbox final : public NotificationOutbox {
 public:
  Result<std::int64_t> Add(const std::string& sink, const std::string& body) override;
  Status Remove(std::int64_t id) override;
  Result<std::vector<OutboxEntry>> Pending() override;

 private:
  Mutex mu_;
  std::int64_t next_id_ GUARDED_BY(mu_) = 1;
  std::vector<OutboxEntry> entries_ GUARDED_BY(mu_);
};

std::string EncodeNotification(const Notification& n);
// InvalidArgument naming what is wrong for a body that is not one
// EncodeNotification wrote.
Result<Notification> DecodeNotification(std::string_view body);

}  // namespace dp
