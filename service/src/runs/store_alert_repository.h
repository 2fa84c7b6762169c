// StoreAlertRepository: AlertRepository (alert/alert_repository.h) over the
// daemon's SQLite Store — the alert module may not include the store (a
// sibling), so the glue lives here. Thread-safe as the Store is; the Store
// must outlive it.
#pragma once

#include "alert/alert_repository.h"
#include "store/store.h"

namespace dp {

class StoreAlertRepository final : public AlertRepository {
 public:
  explicit StoreAlertRepository(Store& store) : store_(store) {}
  Result<std::optional<Alert>> OpenAlertFor(const std::string& drive_id,
                                            const std::string& condition) override {
    return store_.OpenAlertFor(drive_id, condition);
  }
  Result<std::int64_t> InsertAlert(const Alert& alert) override { return store_.InsertAlert(alert); }
  Status UpdateAlert(const Alert& alert) override { return store_.UpdateAlert(alert); }
  Result<std::vector<Alert>> ActiveAlerts() override;
  Result<std::optional<Alert>> LastResolvedFor(const std::string& drive_id,
                                               const std::string& condition) override;
  Result<std::optional<Alert>> GetAlert(std::int64_t id) override { return store_.GetAlert(id); }
  Result<std::int64_t> InsertRebaseline(const RebaselineMark& mark) override {
    return store_.InsertRebaseline(mark);
  }

 private:
  Store& store_;
};

}  // namespace dp
