// AlertService: applies verdicts to stored alerts and sends what the
// lifecycle (alert/alert_lifecycle.h) decides: the glue between detect's
// verdicts, the repository (the store) and the notifier (the dispatcher).
// Calls are serialised by an internal mutex (find-then-insert must not race),
// so any thread may call; delivery happens on the dispatcher's threads.
// Owned by the composition root.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "alert/alert_lifecycle.h"
#include "alert/alert_repository.h"
#include "alert/notification.h"
#include "base/clock.h"
#include "base/thread_annotations.h"
#include "model/rebaseline_mark.h"

namespace dp {

struct AlertServiceOptions {
  AlertPolicy policy;
  bool notify = true;  // alerts.enabled: false stores alerts but sends nothing
  std::string host;    // shown in notifications
  // Until when notifications about an alert of `condition` on `drive_id`
  // are held (a mute override, runs/override_book.h); nullopt = not muted.
  // A muted alert still opens, refreshes and resolves; only sending stops.
  // An alert opened under a mute is announced by the first CheckReminders
  // after the mute expires, if it is still open. Null = nothing is muted.
  std::function<std::optional<std::int64_t>(const std::string& drive_id,
                                            const std::string& condition)>
      muted_until;
  // Called after every change of a stored alert (opened, refreshed,
  // notified, acknowledged, resolved), under the service's lock: it must
  // only take note (the MQTT state publisher publishes later, on its own
  // thread). Null = nobody listens.
  std::function<void()> on_change;
};

// What a re-baseline did: the mark as kept (id set) and the alerts it closed.
struct RebaselineOutcome {
  RebaselineMark mark;
  std::vector<Alert> resolved;
};

// Whether an alert condition ("slowdown:seq:qd8-1m:mb_per_s") is one a
// re-baseline of `test` ("" = every test) closes: slowdown and trend alerts,
// which compare a drive with its own past. Peer, SMART and pool alerts are
// left alone.
bool ClosedByRebaseline(const std::string& condition, const std::string& test);
// The same for a stored alert: a drive's slowdown or trend event
// (alert/alert_events.h) when one of its active members is.
bool ClosedByRebaseline(const Alert& a, const std::string& test);

class AlertService {
 public:
  // notifier may be null (store only).
  AlertService(AlertRepository& repo, Notifier* notifier, const Clock& clock,
               AlertServiceOptions options);

  // Applies one verdict (after a run, a SMART snapshot, a pool status), as
  // OnVerdicts does. Returns the alert as stored when one was
  // opened/updated/resolved (for a slowdown, peer, trend or environment
  // verdict: its event's, alert/alert_events.h).
  Result<std::optional<Alert>> OnVerdict(const Verdict& verdict);
  // One run's verdicts, gathered into events (ApplyVerdicts); all applied,
  // the first error returned.
  Status OnVerdicts(const std::vector<Verdict>& verdicts);
  // Sends due reminders of open alerts, and the opening notification an
  // alert opened under a mute never had once that mute is over (a watch not
  // notified yet is not owed one); call periodically (e.g. every 10 min).
  Status CheckReminders();
  // POST /api/v1/alerts/{id}/ack. NotFound for an unknown id,
  // FailedPrecondition for a resolved alert.
  Result<Alert> Acknowledge(std::int64_t id);
  // Resolves, at `at` (unix seconds) and with `resolution` as the reason,
  // the active alerts `match` selects, under the same lock as OnVerdict, so
  // a verdict applied at the same moment cannot write one of them back open;
  // returns them as stored. Every match is attempted; the first failure is
  // returned. Sends no notification. Calls on_change even when nothing
  // matched: retiring a drive goes through here, and what shows its state
  // must hear of it.
  Result<std::vector<Alert>> ResolveActive(const std::function<bool(const Alert&)>& match,
                                           const std::string& resolution, std::int64_t at);
  // Re-baselines a drive (the API on request, discovery after a firmware
  // change): keeps the mark (mark.at and mark.drive_id required; an empty
  // reason becomes "re-baseline requested") and resolves the drive's active
  // alerts that ClosedByRebaseline selects, at mark.at, with the reason
  // "re-baselined: REASON" and no notification (the owner asked, or
  // discovery logged the change). Both under the lock of OnVerdict, so a run
  // judged at the same moment cannot write one of them back open. mark.test
  // is "" or a test judged against its own history: runs/rebaseline.h
  // validates it for callers. The mark is kept even if resolving an alert
  // fails (the error is returned; the next re-baseline resolves the rest).
  Result<RebaselineOutcome> Rebaseline(RebaselineMark mark);

 private:
  // before: the alert as it was (for a held notification's counters).
  Result<std::optional<Alert>> Apply(AlertDecision d, const std::optional<Alert>& before)
      REQUIRES(mu_);
  Status ApplyLocked(const std::vector<Verdict>& verdicts, std::optional<Alert>* last)
      EXCLUDES(mu_);
  std::optional<std::int64_t> MutedUntil(const Alert& a) const;
  void Changed() const;

  Mutex mu_;  // one change of the alerts at a time, so they keep their order
  AlertRepository& repo_ GUARDED_BY(mu_);
  Notifier* notifier_;
  const Clock& clock_;
  AlertServiceOptions options_;
};

}  // namespace dp
