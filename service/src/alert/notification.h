// Notification: one message about one alert (opened, reminder, escalated,
// resolved) or a test message, in the form every sink renders from: a title,
// a text body and a JSON document; plus the template renderer used by the
// webhook sink. Plain value type; pure functions.
//
// Template placeholders ({{name}}; unknown names are left as they are):
//   {{event}}      opened | reminder | escalated | resolved | test
//   {{title}}      "[warning] sdb reads 11% slower than it used to" (one line: the headline)
//   {{headline}}   what happened, in an owner's words (alert/alert_words.h)
//   {{confidence}} how sure diskpulse is: "Sure (3 rules, 6 weeks)"
//   {{advice}}     what to do next
//   {{summary}}    the verdict's one-line summary, with its statistics
//   {{text}}       the multi-line body (headline, how sure, what to do, then
//                  the summary, alert and evidence)
//   {{drive}}      the drive's name for people (its id when no name is known)
//   {{drive_id}}   {{condition}}  {{severity}}  {{state}}  {{alert_id}}
//   {{priority}}   1..5 for ntfy/Gotify-style endpoints (info 3, warning 4,
//                  critical 5; resolved 2)
//   {{at}}         the notification time, "2026-01-01T00:00:00Z"
//   {{host}}       the host name given to the dispatcher
//   {{evidence}}   the evidence JSON document (compact)
//   {{json}}       the whole notification JSON document (compact)
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "alert/alert_lifecycle.h"
#include "base/clock.h"
#include "model/alert.h"

namespace dp {

struct Notification {
  NotifyKind kind = NotifyKind::kOpened;
  Alert alert;
  std::string drive_name;  // "" = use alert.drive_id
  std::string host;        // this machine, for the reader's orientation
  SysTime at{};

  std::string Drive() const;
  // The alert's headline (its summary for an alert stored without words).
  std::string Headline() const;
  std::string Title() const;
  std::string Text() const;
  int Priority() const;
};

// Builds a notification; the drive name comes from the alert's evidence
// ("drive_name") when there is one.
Notification MakeNotification(NotifyKind kind, const Alert& alert, SysTime at,
                              std::string host = "");
// A notification for `diskpulse alerts test`.
Notification MakeTestNotification(SysTime at, std::string host = "");

nlohmann::json NotificationToJson(const Notification& n);

// Replaces the placeholders above. json_escape: replacements are escaped as
// the inside of a JSON string (for templates like {"text": "{{summary}}"});
// {{json}} and {{evidence}} are inserted as JSON either way.
std::string RenderTemplate(std::string_view tmpl, const Notification& n, bool json_escape);

}  // namespace dp

namespace dp {

// Where the alert service hands notifications (the AlertDispatcher in the
// daemon, a recorder in tests). Submit must not block on delivery.
class Notifier {
 public:
  virtual ~Notifier() = default;
  virtual void Submit(const Notification& n) = 0;
};

}  // namespace dp
