#include "alert/alert_repository.h"

namespace dp {

Result<std::optional<Alert>> InMemoryAlertRepository::OpenAlertFor(const std::string& drive_id,
                                                                   const std::string& condition) {
  MutexLock lock(mu_);
  for (const auto& a : alerts_)
    if (a.drive_id == drive_id && a.condition == condition && a.state != "resolved") return {a};
  return std::optional<Alert>();
}

Result<std::int64_t> InMemoryAlertRepository::InsertAlert(const Alert& alert) {
  MutexLock lock(mu_);
  for (const auto& a : alerts_)
    if (a.drive_id == alert.drive_id && a.condition == alert.condition && a.state != "resolved")
      return AlreadyExists("an active alert exists for " + alert.drive_id + " " + alert.condition);
  Alert copy = alert;
  copy.id = static_cast<std::int64_t>(alerts_.size()) + 1;
  alerts_.push_back(copy);
  return copy.id;
}

Status InMemoryAlertRepository::UpdateAlert(const Alert& alert) {
  MutexLock lock(mu_);
  if (alert.id < 1 || alert.id > static_cast<std::int64_t>(alerts_.size()))
    return NotFound("alert " + std::to_string(alert.id));
  alerts_[alert.id - 1] = alert;
  return Status::Ok();
}

Result<std::vector<Alert>> InMemoryAlertRepository::ActiveAlerts() {
  MutexLock lock(mu_);
  std::vector<Alert> out;
  for (const auto& a : alerts_)
    if (a.state != "resolved") out.push_back(a);
  return out;
}

Result<std::optional<Alert>> InMemoryAlertRepository::LastResolvedFor(
    const std::string& drive_id, const std::string& condition) {
  MutexLock lock(mu_);
  for (auto it = alerts_.rbegin(); it != alerts_.rend(); ++it)
    if (it->state == "resolved" && it->drive_id == drive_id && it->condition == condition)
      return std::optional<Alert>(*it);
  return std::optional<Alert>();
}

Result<std::optional<Alert>> InMemoryAlertRepository::GetAlert(std::int64_t id) {
  MutexLock lock(mu_);
  if (id < 1 || id > static_cast<std::int64_t>(alerts_.size())) return std::optional<Alert>();
  return std::optional<Alert>(alerts_[id - 1]);
}

Result<std::int64_t> InMemoryAlertRepository::InsertRebaseline(const RebaselineMark& mark) {
  MutexLock lock(mu_);
  RebaselineMark copy = mark;
  copy.id = static_cast<std::int64_t>(marks_.size()) + 1;
  marks_.push_back(copy);
  return copy.id;
}

std::vector<Alert> InMemoryAlertRepository::All() const {
  MutexLock lock(mu_);
  return alerts_;
}

std::vector<RebaselineMark> InMemoryAlertRepository::Rebaselines() const {
  MutexLock lock(mu_);
  return marks_;
}

}  // namespace dp
