#include "alert/webhook_sink.h"

#include "base/log.h"
#include "net/http_client.h"

namespace dp {

Result<net::Url> ParseWebhookUrl(std::string_view url) {
  auto u = net::ParseUrl(url);
  if (!u.ok()) return InvalidArgument("webhook " + u.status().message());
  return u;
}

Result<std::unique_ptr<WebhookSink>> WebhookSink::Create(const WebhookConfig& config) {
  DP_ASSIGN_OR_RETURN(net::Url url, ParseWebhookUrl(config.url));
  if (url.tls && !config.verify_tls)
    LogWarning("alert webhook " + config.name +
               ": TLS certificate verification is OFF (verify_tls: false); anyone on the path "
               "can read and forge these notifications");
  return std::unique_ptr<WebhookSink>(new WebhookSink(config, std::move(url)));
}

std::string WebhookSink::Body(const Notification& n) const {
  if (config_.body_template.empty())
    return NotificationToJson(n).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  bool json = config_.content_type.find("json") != std::string::npos;
  return RenderTemplate(config_.body_template, n, json);
}

Status WebhookSink::Send(const Notification& n) {
  const std::string where =
      "webhook " + config_.name + " (" + url_.host + ":" + std::to_string(url_.port) + ")";
  net::HttpRequest req;
  req.method = config_.method == "PUT" ? "PUT" : "POST";
  req.content_type = config_.content_type;
  for (const auto& [k, v] : config_.headers) req.headers.emplace_back(k, RenderTemplate(v, n, false));
  req.body = Body(n);
  net::HttpOptions options;
  options.timeout = std::chrono::seconds(config_.timeout_seconds);
  options.verify_tls = config_.verify_tls;
  options.ca_file = config_.ca_file;
  auto answer = net::Exchange(url_, req, options);
  if (!answer.ok()) {
    const Status& st = answer.status();
    // A bad CA file is a failed attempt like any other: retried, reported.
    return st.code() == StatusCode::kTimeout ? Timeout(where + ": " + st.message())
                                             : Unavailable(where + ": " + st.message());
  }
  if (answer->status >= 200 && answer->status < 300) return Status::Ok();
  std::string body = answer->body.substr(0, 200);
  for (char& c : body)
    if (c == '\n' || c == '\r') c = ' ';
  return Unavailable(where + ": HTTP " + std::to_string(answer->status) + " " + answer->reason +
                     (body.empty() ? "" : ": " + body));
}

}  // namespace dp
