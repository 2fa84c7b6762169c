// AlertRepository: where AlertService keeps alerts, and the re-baseline
// marks that close them. The daemon implements it over the store
// (runs/store_alert_repository.h: Store::OpenAlertFor / InsertAlert /
// UpdateAlert / ListAlerts / GetAlert / InsertRebaseline; the alert module
// may not include the store, a sibling); InMemoryAlertRepository serves tests
// and the detection benchmark.
// Implementations must be thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/thread_annotations.h"
#include "model/alert.h"
#include "model/rebaseline_mark.h"

namespace dp {

class AlertRepository {
 public:
  virtual ~AlertRepository() = default;
  // The open or acknowledged alert for (drive_id, condition), if any.
  virtual Result<std::optional<Alert>> OpenAlertFor(const std::string& drive_id,
                                                    const std::string& condition) = 0;
  // Returns the new id. AlreadyExists when an active alert has the same key.
  virtual Result<std::int64_t> InsertAlert(const Alert& alert) = 0;
  virtual Status UpdateAlert(const Alert& alert) = 0;
  // Open and acknowledged alerts.
  virtual Result<std::vector<Alert>> ActiveAlerts() = 0;
  virtual Result<std::optional<Alert>> GetAlert(std::int64_t id) = 0;
  // Keeps a re-baseline mark (its id is ignored); returns the new id.
  virtual Result<std::int64_t> InsertRebaseline(const RebaselineMark& mark) = 0;
  // The newest resolved alert of (drive_id, condition), if any.
  virtual Result<std::optional<Alert>> LastResolvedFor(const std::string& drive_id,
                                                       const std::string& condition) = 0;
};

class InMemoryAlertRepository final : public AlertRepository {
 public:
  Result<std::optional<Alert>> OpenAlertFor(const std::string& drive_id,
                                            const std::string& condition) override;
  Result<std::int64_t> InsertAlert(const Alert& alert) override;
  Status UpdateAlert(const Alert& alert) override;
  Result<std::vector<Alert>> ActiveAlerts() override;
  Result<std::optional<Alert>> GetAlert(std::int64_t id) override;
  Result<std::int64_t> InsertRebaseline(const RebaselineMark& mark) override;
  Result<std::optional<Alert>> LastResolvedFor(const std::string& drive_id,
                                               const std::string& condition) override;
  std::vector<Alert> All() const;                   // every alert ever, oldest first
  std::vector<RebaselineMark> Rebaselines() const;  // every mark, oldest first

 private:
  mutable Mutex mu_;
  std::vector<Alert> alerts_ GUARDED_BY(mu_);
  std::vector<RebaselineMark> marks_ GUARDED_BY(mu_);
};

}  // namespace dp
