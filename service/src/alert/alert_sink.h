// AlertSink: one place notifications go (a webhook, a mail command, syslog).
// Send makes one delivery attempt and returns how it went; retries, queues
// and threads are the AlertDispatcher's business. A sink is used by one
// dispatcher worker thread at a time (and by SendTest), so implementations
// need no locking of their own beyond what they share.
#pragma once

#include <string>

#include "alert/notification.h"
#include "base/status.h"

namespace dp {

class AlertSink {
 public:
  virtual ~AlertSink() = default;
  virtual const std::string& name() const = 0;  // "webhook-0", "mail-ops", "syslog"
  virtual Status Send(const Notification& n) = 0;
};

}  // namespace dp
