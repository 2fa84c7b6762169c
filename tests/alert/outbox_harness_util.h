// OutboxHarness: an AlertDispatcher with the store's outbox behind it (a
// database of its own), quick retries, and the /api/v1/health answer the API
// gives about it: how the sinks' tests watch a notification that is owed.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "alert/alert_dispatcher.h"
#include "alert/notification_outbox.h"
#include "base/fake_clock.h"
#include "store/store.h"

namespace dp::testing {

class OutboxHarness {
 public:
  explicit OutboxHarness(const std::string& db_path);
  ~OutboxHarness() { Stop(); }
  bool ok() const { return store_ != nullptr; }

  // A new dispatcher over the outbox with this one sink, started; retries
  // every 100-200 ms unless a policy is given.
  void Start(std::unique_ptr<AlertSink> sink, std::optional<SinkPolicy> policy = std::nullopt);
  void Stop();

  AlertDispatcher& dispatcher() { return *dispatcher_; }
  FakeClock& clock() { return clock_; }
  nlohmann::json Health();
  std::size_t OutboxSize();

 private:
  FakeClock clock_{FromUnixSeconds(1764460800)};
  std::unique_ptr<Store> store_;
  std::unique_ptr<NotificationOutbox> outbox_;
  std::unique_ptr<AlertDispatcher> dispatcher_;
};

}  // namespace dp::testing
