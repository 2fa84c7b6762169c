// The alert lifecycle as pure functions: open -> acknowledged ->
// resolved, one active alert per (drive, condition), auto-resolve after
// policy.resolve_after_clear_runs clear evaluations in a row, reminders for
// unacknowledged alerts on a diminishing schedule (first_reminder after the
// opening notification, then 2x, 4x, ... capped at max_reminder). Each
// function maps (existing alert, input, now) to what to store and what to
// send; the caller (AlertService) does the storing and sending. Pure,
// thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "config/alerts_config.h"
#include "model/alert.h"
#include "model/verdict.h"

namespace dp {

struct AlertPolicy {
  int resolve_after_clear_runs = 3;
  std::chrono::seconds first_reminder{std::chrono::hours(24)};
  std::chrono::seconds max_reminder{std::chrono::hours(24 * 32)};  // 0 = no reminders
  // A slowdown, peer or environment alert below critical is a watch until
  // it still fires this long after it opened: drives' own housekeeping (SMR
  // shingle cleaning, SSD garbage collection, a media scan) makes a drive
  // much slower for hours, long enough to outlast the re-test, and is gone
  // by the next scheduled run. Its notification ("opened") goes out then; a
  // watch that clears first is never notified. 0 = notify at once.
  std::chrono::seconds persist_before_notify{std::chrono::hours(20)};

  static AlertPolicy FromConfig(const AlertsConfig& c);
};

enum class NotifyKind { kNone, kOpened, kReminder, kEscalated, kResolved, kTest };
std::string_view NotifyKindName(NotifyKind k);  // "none", "opened", "reminder", ...

struct AlertDecision {
  enum class Write { kNothing, kInsert, kUpdate };
  Write write = Write::kNothing;
  Alert alert;  // the state to store when write != kNothing
  NotifyKind notify = NotifyKind::kNone;
};

// What a verdict does to the active alert for its (drive, condition), if any
// (`existing` must be open or acknowledged, or absent):
//  - firing, none active: insert an open alert, notify kOpened; a deferred
//    kind (AlertPolicy::persist_before_notify) below critical opens as a
//    watch, not notified (notify_count 0);
//  - firing, active: refresh summary/evidence, clear_streak = 0; a watch
//    still firing persist_before_notify after it opened, or become critical,
//    is notified (kOpened); a higher severity escalates (notify kEscalated);
//    a due reminder is sent when open and notified before;
//  The summary and evidence the alert opened with are kept apart
//  (opened_summary, opened_evidence_json); every refresh that says something
//  new, the notification and the resolution are added to history_json.
//  - kClear, active: clear_streak + 1; at policy.resolve_after_clear_runs the
//    alert resolves (notify kResolved, unless it was a watch never notified;
//    its summary stays, the clear verdict's goes to resolution). For a slowdown alert only a run back
//    within the single-run band it last fired with counts; a clear verdict
//    whose run is still beyond it is a doubt (hysteresis: the detector's
//    baseline can move under an open alert and flip its verdict);
//  - kNeedsConfirmation, active: clear_streak = 0 (a doubt is not a clear run);
//  - kBaselining / kInconclusive: nothing (no evidence either way).
AlertDecision Update(const std::optional<Alert>& existing, const Verdict& verdict, SysTime now,
                     const AlertPolicy& policy);

// True for the condition kinds whose alerts start as a watch
// (AlertPolicy::persist_before_notify): slowdown, peer, environment.
bool DeferredKind(std::string_view condition);

// Resolves `a` at `now` with `resolution` ("cleared: ..."): kUpdate, and
// kResolved when it had been notified.
AlertDecision Resolve(const Alert& a, SysTime now, const std::string& resolution);

// Adds {"at", "what", "summary"} to a.history_json, keeping the newest
// kAlertHistoryKept.
void AddHistory(Alert& a, std::int64_t at, std::string_view what, const std::string& summary);

// When the next reminder of `a` is due; nullopt for acknowledged/resolved
// alerts, watches not notified yet, or when reminders are off. notify_count counts notifications sent
// for the alert: reminder k (k >= 1) is due first_reminder * 2^(k-1) after
// the previous notification, capped at max_reminder.
std::optional<SysTime> NextReminderAt(const Alert& a, const AlertPolicy& policy);

// Periodic check (no new verdict needed): a due reminder -> kUpdate + kReminder.
AlertDecision CheckReminder(const Alert& a, SysTime now, const AlertPolicy& policy);

// open -> acknowledged (kUpdate, no notification). Acknowledging an
// acknowledged alert is a no-op success; a resolved one is FailedPrecondition.
Result<AlertDecision> Acknowledge(const Alert& a, SysTime now);

}  // namespace dp
