// AlertService: applies verdicts to stored alerts and sends what the
// lifecycle (alert/alert_lifecycle.h) decides: the glue between detect's
// verdicts, the repository (the store) and the notifier (the dispatcher).
// Calls are serialised by an internal mutex (find-then-insert must not race),
// so any thread may call; delivery happens on the dispatcher's threads.
// Owned by the composition root.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "alert/alert_lifecycle.h"
#include "alert/alert_repository.h"
#include "alert/notification.h"
#include "base/clock.h"

namespace dp {

struct AlertServiceOptions {
  AlertPolicy policy;
  bool notify = true;  // alerts.enabled: false stores alerts but sends nothing
  std::string host;    // shown in notifications
};

// Resolves, at `at` (unix seconds) and with `resolution` as the reason, the
// active alerts of `repo` that `match` selects; returns them as stored. Every
// match is attempted; the first failure is returned. Not locked: use
// AlertService::ResolveActive while an AlertService runs on the repository.
Result<std::vector<Alert>> ResolveActiveAlerts(AlertRepository& repo,
                                               const std::function<bool(const Alert&)>& match,
                                               const std::string& resolution, std::int64_t at);

class AlertService {
 public:
  // notifier may be null (store only).
  AlertService(AlertRepository& repo, Notifier* notifier, const Clock& clock,
               AlertServiceOptions options);

  // Applies one verdict (after a run, a SMART snapshot, a pool status).
  // Returns the alert as stored when one was opened/updated/resolved.
  Result<std::optional<Alert>> OnVerdict(const Verdict& verdict);
  Status OnVerdicts(const std::vector<Verdict>& verdicts);  // all applied; first error returned
  // Sends due reminders of open alerts; call periodically (e.g. every 10 min).
  Status CheckReminders();
  // POST /api/v1/alerts/{id}/ack. NotFound for an unknown id,
  // FailedPrecondition for a resolved alert.
  Result<Alert> Acknowledge(std::int64_t id);
  // Resolves the active alerts `match` selects (ResolveActiveAlerts) under
  // the same lock as OnVerdict, so a verdict applied at the same moment
  // cannot write one of them back open. Sends no notification.
  Result<std::vector<Alert>> ResolveActive(const std::function<bool(const Alert&)>& match,
                                           const std::string& resolution, std::int64_t at);

 private:
  Result<std::optional<Alert>> Apply(AlertDecision d);

  std::mutex mu_;
  AlertRepository& repo_;
  Notifier* notifier_;
  const Clock& clock_;
  AlertServiceOptions options_;
};

}  // namespace dp
