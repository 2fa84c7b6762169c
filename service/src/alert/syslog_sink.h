// SyslogSink: writes one line per notification to syslog(3) with the
// configured facility and a priority from the alert's severity (critical ->
// LOG_CRIT, warning -> LOG_WARNING, info and resolutions -> LOG_NOTICE).
// The syslog call is a seam (a writer function) so tests can capture lines.
// Thread-safe (syslog(3) is).
#pragma once

#include <functional>
#include <string>

#include "alert/alert_sink.h"
#include "config/alerts_config.h"

namespace dp {

class SyslogSink final : public AlertSink {
 public:
  // priority: facility | level, as for syslog(3).
  using Writer = std::function<void(int priority, const std::string& line)>;

  // Errors: an unknown facility name.
  static Result<std::unique_ptr<SyslogSink>> Create(const SyslogAlertConfig& config,
                                                    Writer writer = nullptr);

  const std::string& name() const override { return name_; }
  Status Send(const Notification& n) override;

  // "diskpulse alert #12 opened: [warning] sda seq ... dropped 18% ..."
  static std::string Line(const Notification& n);
  int PriorityFor(const Notification& n) const;

 private:
  SyslogSink(int facility, Writer writer) : facility_(facility), writer_(std::move(writer)) {}
  std::string name_ = "syslog";
  int facility_;
  Writer writer_;
};

}  // namespace dp
