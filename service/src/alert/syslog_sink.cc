#include "alert/syslog_sink.h"

#include <syslog.h>

#include <map>

namespace dp {

Result<std::unique_ptr<SyslogSink>> SyslogSink::Create(const SyslogAlertConfig& config,
                                                       Writer writer) {
  static const std::map<std::string, int> kFacilities = {
      {"daemon", LOG_DAEMON}, {"user", LOG_USER},     {"local0", LOG_LOCAL0},
      {"local1", LOG_LOCAL1}, {"local2", LOG_LOCAL2}, {"local3", LOG_LOCAL3},
      {"local4", LOG_LOCAL4}, {"local5", LOG_LOCAL5}, {"local6", LOG_LOCAL6},
      {"local7", LOG_LOCAL7}};
  auto it = kFacilities.find(config.facility);
  if (it == kFacilities.end())
    return InvalidArgument("alerts.syslog.facility: unknown facility '" + config.facility + "'");
  if (!writer) {
    writer = [](int priority, const std::string& line) { ::syslog(priority, "%s", line.c_str()); };
  }
  return std::unique_ptr<SyslogSink>(new SyslogSink(it->second, std::move(writer)));
}

std::string SyslogSink::Line(const Notification& n) {
  if (n.kind == NotifyKind::kTest) return "diskpulse test notification";
  std::string line = "diskpulse alert #" + std::to_string(n.alert.id) + " " +
                     std::string(NotifyKindName(n.kind)) + ": [" + n.alert.severity + "] " +
                     n.Headline();
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return line;
}

int SyslogSink::PriorityFor(const Notification& n) const {
  int level = LOG_NOTICE;
  if (n.kind != NotifyKind::kResolved && n.kind != NotifyKind::kTest) {
    if (n.alert.severity == "critical")
      level = LOG_CRIT;
    else if (n.alert.severity == "warning")
      level = LOG_WARNING;
  }
  return facility_ | level;
}

Status SyslogSink::Send(const Notification& n) {
  writer_(PriorityFor(n), Line(n));
  return Status::Ok();
}

}  // namespace dp
