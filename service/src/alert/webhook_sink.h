// WebhookSink: POSTs (or PUTs) a notification to an HTTP or HTTPS endpoint.
// The body is the notification's JSON document, or the configured template
// rendered with {{placeholders}} (alert/notification.h) so ntfy, Gotify,
// Slack-style and other endpoints can be fed; headers may be templates too.
// The exchange is net/http_client.h's (one deadline per attempt, HTTPS
// verified against the system store or a configured CA file, redirects not
// followed); any 2xx answer is success, anything else an error naming the
// status. Thread behaviour: see AlertSink.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "alert/alert_sink.h"
#include "base/result.h"
#include "config/alerts_config.h"
#include "net/url.h"

namespace dp {

// "https://ntfy.example:8443/disks?x=1": a scheme is required, the port is
// the scheme's unless given, credentials in the URL are refused.
// Errors: InvalidArgument naming what is wrong.
Result<net::Url> ParseWebhookUrl(std::string_view url);

class WebhookSink final : public AlertSink {
 public:
  // Errors: the URL does not parse.
  static Result<std::unique_ptr<WebhookSink>> Create(const WebhookConfig& config);

  const std::string& name() const override { return config_.name; }
  // Errors: Unavailable (cannot connect, TLS failure, non-2xx answer),
  // Timeout (no complete answer within timeout_seconds).
  Status Send(const Notification& n) override;

  // The request body this sink would send for n (for tests and previews).
  std::string Body(const Notification& n) const;

 private:
  WebhookSink(WebhookConfig config, net::Url url)
      : config_(std::move(config)), url_(std::move(url)) {}

  WebhookConfig config_;
  net::Url url_;
};

}  // namespace dp
