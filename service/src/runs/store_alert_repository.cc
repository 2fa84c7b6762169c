#include "runs/store_alert_repository.h"

namespace dp {

Result<std::vector<Alert>> StoreAlertRepository::ActiveAlerts() {
  AlertFilter filter;
  filter.state = "active";
  filter.limit = 0;
  return store_.ListAlerts(filter);
}

Result<std::optional<Alert>> StoreAlertRepository::LastResolvedFor(
    const std::string& drive_id, const std::string& condition) {
  AlertFilter filter;
  filter.state = "resolved";
  filter.drive_id = drive_id;
  filter.limit = 200;  // newest first: the box's events are few
  DP_ASSIGN_OR_RETURN(std::vector<Alert> resolved, store_.ListAlerts(filter));
  for (Alert& a : resolved)
    if (a.drive_id == drive_id && a.condition == condition) return std::optional<Alert>(std::move(a));
  return std::optional<Alert>();
}

}  // namespace dp
