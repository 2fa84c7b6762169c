// DaemonClient: the CLI's client for diskpulsed's REST API (`diskpulse
// status`, `run`, `alerts`) over net/http_client.h: one request per
// connection, a deadline on the whole exchange, the API token as a Bearer
// header, HTTPS verified against the system's CAs or a given CA file.
// Immutable after Create(); each call is independent, safe from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace dp::cli {

inline constexpr const char* kDefaultDaemonUrl = "http://127.0.0.1:8470";

struct DaemonUrl {
  std::string scheme = "http";  // http | https
  std::string host = "127.0.0.1";
  std::uint16_t port = 8470;
  std::string base_path;        // "" or "/prefix" (no trailing slash)
};

// "http://127.0.0.1:8470", "https://nas.local:8470/", "127.0.0.1:8470",
// "[::1]:8470" (net::ParseUrl). The scheme defaults to http, the port to 8470.
Result<DaemonUrl> ParseDaemonUrl(std::string_view url);

struct DaemonClientOptions {
  std::string url = kDefaultDaemonUrl;
  std::string token;                          // sent as "Authorization: Bearer <token>"
  std::chrono::milliseconds timeout{10'000};  // for the whole exchange
  std::string ca_file;                        // https: trust this PEM instead of the system's
  bool insecure = false;                      // https: do not verify the certificate
};

// Defaults, with url and token taken from $DISKPULSE_URL and $DISKPULSE_TOKEN
// when set. Commands then apply their --url/--token flags on top.
DaemonClientOptions DaemonClientOptionsFromEnvironment();

struct HttpReply {
  int status = 0;
  std::string content_type;
  std::string body;
};

class DaemonClient {
 public:
  static Result<DaemonClient> Create(DaemonClientOptions options);

  // Any HTTP status is a successful exchange here. Errors:
  //   Unavailable "cannot reach diskpulsed at URL: connection refused (is it running?)",
  //   Timeout "diskpulsed at URL did not answer within N s".
  Result<HttpReply> Send(std::string_view method, std::string_view path, std::string body = "",
                         std::string_view content_type = "application/json") const;
  Result<HttpReply> Get(std::string_view path) const { return Send("GET", path); }

  // JSON calls: a non-2xx answer becomes an error with the daemon's message
  // (401/403 PermissionDenied, 404 NotFound, 400 InvalidArgument, else
  // Unavailable).
  Result<nlohmann::json> GetJson(std::string_view path) const;
  Result<nlohmann::json> PostJson(std::string_view path,
                                  const nlohmann::json& body = nlohmann::json::object()) const;

  // "http://127.0.0.1:8470", for messages.
  const std::string& url() const { return display_url_; }

 private:
  DaemonClient(DaemonClientOptions options, DaemonUrl url);
  Result<nlohmann::json> DecodeJson(Result<HttpReply> reply, std::string_view path) const;

  DaemonClientOptions options_;
  DaemonUrl url_;
  std::string display_url_;
};

}  // namespace dp::cli
