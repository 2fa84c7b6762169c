// StoreNotificationOutbox: NotificationOutbox (alert/notification_outbox.h)
// over the daemon's SQLite Store (table notification_outbox) — the alert
// module may not include the store, a sibling, so the glue lives here beside
// StoreAlertRepository. Thread-safe as the Store is; the Store and the clock
// must outlive it.
#pragma once

#include "alert/notification_outbox.h"
#include "base/clock.h"
#include "store/store.h"

namespace dp {

class StoreNotificationOutbox final : public NotificationOutbox {
 public:
  StoreNotificationOutbox(Store& store, const Clock& clock) : store_(store), clock_(clock) {}
  Result<std::int64_t> Add(const std::string& sink, const std::string& body) override {
    return store_.AddOutboxEntry(sink, body, ToUnixSeconds(clock_.Now()));
  }
  Status Remove(std::int64_t id) override { return store_.RemoveOutboxEntry(id); }
  Result<std::vector<OutboxEntry>> Pending() override {
    DP_ASSIGN_OR_RETURN(std::vector<StoredOutboxEntry> rows, store_.ListOutbox());
    std::vector<OutboxEntry> out;
    out.reserve(rows.size());
    for (auto& r : rows) out.push_back({r.id, std::move(r.sink), std::move(r.body)});
    return out;
  }

 private:
  Store& store_;
  const Clock& clock_;
};

}  // namespace dp
