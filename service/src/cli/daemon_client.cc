#include "cli/daemon_client.h"

#include <cstdlib>

#include "base/strings.h"
#include "net/http_client.h"

namespace dp::cli {
namespace {

constexpr std::size_t kMaxReplyBytes = std::size_t{64} << 20;

}  // namespace

Result<DaemonUrl> ParseDaemonUrl(std::string_view url) {
  net::UrlRules rules;
  rules.default_scheme = "http";
  rules.default_port = 8470;
  rules.refuse_userinfo = false;
  DP_ASSIGN_OR_RETURN(net::Url u, net::ParseUrl(url, rules));
  DaemonUrl out;
  out.scheme = u.scheme;
  out.host = u.host;
  out.port = u.port;
  std::string_view path = u.rest;
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  out.base_path = std::string(path);
  return out;
}

DaemonClientOptions DaemonClientOptionsFromEnvironment() {
  DaemonClientOptions o;
  if (const char* u = std::getenv("DISKPULSE_URL"); u && *u) o.url = u;
  if (const char* t = std::getenv("DISKPULSE_TOKEN"); t && *t) o.token = t;
  return o;
}

DaemonClient::DaemonClient(DaemonClientOptions options, DaemonUrl url)
    : options_(std::move(options)), url_(std::move(url)) {
  bool v6 = url_.host.find(':') != std::string::npos;
  display_url_ = url_.scheme + "://" + (v6 ? "[" + url_.host + "]" : url_.host) + ":" +
                 std::to_string(url_.port) + url_.base_path;
}

Result<DaemonClient> DaemonClient::Create(DaemonClientOptions options) {
  DP_ASSIGN_OR_RETURN(DaemonUrl url, ParseDaemonUrl(options.url));
  return DaemonClient(std::move(options), std::move(url));
}

Result<HttpReply> DaemonClient::Send(std::string_view method, std::string_view path,
                                     std::string body, std::string_view content_type) const {
  net::Url url;
  url.scheme = url_.scheme;
  url.tls = url_.scheme == "https";
  url.host = url_.host;
  url.port = url_.port;
  net::HttpRequest req;
  req.method = std::string(method);
  req.target = url_.base_path + std::string(path);
  const bool v6 = url_.host.find(':') != std::string::npos;
  req.host_header = (v6 ? "[" + url_.host + "]" : url_.host) + ":" + std::to_string(url_.port);
  req.headers.emplace_back("Accept", "application/json");
  if (!options_.token.empty()) req.headers.emplace_back("Authorization", "Bearer " + options_.token);
  if (!body.empty() || method == "POST" || method == "PUT") {
    req.content_type = std::string(content_type);
    req.body = std::move(body);
  }
  net::HttpOptions http;
  http.timeout = options_.timeout;
  http.verify_tls = !options_.insecure;
  http.ca_file = options_.ca_file;
  http.max_answer_bytes = kMaxReplyBytes;
  auto answer = net::Exchange(url, req, http);
  if (!answer.ok()) {
    const Status& st = answer.status();
    if (st.code() == StatusCode::kTimeout)
      return Timeout("diskpulsed at " + display_url_ + " did not answer within " +
                     net::FormatSeconds(options_.timeout) + " s");
    if (st.message() == net::kConnectionRefused)
      return Unavailable("cannot reach diskpulsed at " + display_url_ +
                         ": connection refused (is it running?)");
    if (st.code() == StatusCode::kInvalidArgument) return st;  // the CA file
    return Unavailable("cannot reach diskpulsed at " + display_url_ + ": " + st.message());
  }
  HttpReply reply;
  reply.status = answer->status;
  reply.content_type = std::move(answer->content_type);
  reply.body = std::move(answer->body);
  return reply;
}

Result<nlohmann::json> DaemonClient::DecodeJson(Result<HttpReply> reply,
                                                std::string_view path) const {
  if (!reply.ok()) return reply.status();
  auto doc = nlohmann::json::parse(reply->body, nullptr, /*allow_exceptions=*/false);
  int st = reply->status;
  if (st >= 200 && st < 300) {
    if (doc.is_discarded())
      return Corrupt("diskpulsed answered " + std::string(path) + " with something not JSON");
    return doc;
  }
  std::string message = "HTTP " + std::to_string(st);
  if (!doc.is_discarded() && doc.contains("error") && doc["error"].is_object() &&
      doc["error"].value("message", "") != "")
    message = doc["error"]["message"].get<std::string>() + " (HTTP " + std::to_string(st) + ")";
  message = "diskpulsed: " + std::string(path) + ": " + message;
  if (st == 401 || st == 403) return PermissionDenied(message);
  if (st == 404) return NotFound(message);
  if (st == 400 || st == 405 || st == 413) return InvalidArgument(message);
  return Unavailable(message);
}

Result<nlohmann::json> DaemonClient::GetJson(std::string_view path) const {
  return DecodeJson(Send("GET", path), path);
}

Result<nlohmann::json> DaemonClient::PostJson(std::string_view path,
                                              const nlohmann::json& body) const {
  return DecodeJson(Send("POST", path, body.dump()), path);
}

}  // namespace dp::cli
