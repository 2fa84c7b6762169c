#include "alert/sink_factory.h"

#include "alert/mail_sink.h"
#include "alert/mqtt_sink.h"
#include "alert/syslog_sink.h"
#include "alert/webhook_sink.h"

namespace dp {
namespace {

SinkPolicy PolicyOf(int attempts, int initial_s, int max_s, const std::string& min_severity,
                    int queue) {
  SinkPolicy p;
  p.max_attempts = attempts;
  p.retry_initial = std::chrono::seconds(initial_s);
  p.retry_max = std::chrono::seconds(std::max(max_s, initial_s));
  p.min_severity = ParseSeverity(min_severity).value_or(Severity::kInfo);
  p.queue_capacity = static_cast<std::size_t>(queue);
  return p;
}

}  // namespace

Status AddConfiguredSinks(AlertDispatcher& dispatcher, const AlertsConfig& config,
                          CommandRunner& runner, const std::string& host,
                          std::vector<std::shared_ptr<MqttSink>>* mqtt) {
  for (const auto& w : config.webhooks) {
    DP_ASSIGN_OR_RETURN(auto sink, WebhookSink::Create(w));
    dispatcher.AddSink(std::move(sink),
                       PolicyOf(w.max_attempts, w.retry_initial_seconds, w.retry_max_seconds,
                                w.min_severity, config.queue_capacity));
  }
  for (const auto& m : config.mail) {
    dispatcher.AddSink(std::make_unique<MailSink>(m, runner, host),
                       PolicyOf(m.max_attempts, m.retry_initial_seconds, m.retry_max_seconds,
                                m.min_severity, config.queue_capacity));
  }
  for (const auto& q : config.mqtt) {
    auto sink = std::make_shared<MqttSink>(q, host);
    if (mqtt) mqtt->push_back(sink);
    dispatcher.AddSink(SharedAlertSink(sink),
                       PolicyOf(q.max_attempts, q.retry_initial_seconds, q.retry_max_seconds,
                                q.min_severity, config.queue_capacity));
  }
  if (config.syslog.enabled) {
    DP_ASSIGN_OR_RETURN(auto sink, SyslogSink::Create(config.syslog));
    dispatcher.AddSink(std::move(sink),
                       PolicyOf(1, 0, 0, config.syslog.min_severity, config.queue_capacity));
  }
  return Status::Ok();
}

}  // namespace dp
