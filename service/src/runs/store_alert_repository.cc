#include "runs/store_alert_repository.h"

namespace dp {

Result<std::vector<Alert>> StoreAlertRepository::ActiveAlerts() {
  AlertFilter filter;
  filter.state = "active";
  filter.limit = 0;
  return store_.ListAlerts(filter);
}

}  // namespace dp
