// The one blocking HTTP(S) client: the webhook sink's notifications and the
// CLI's calls to diskpulsed. One request per connection, one deadline for the
// whole exchange (resolve, connect, TLS, send, answer; blocking Asio calls
// have none), HTTPS through OpenSSL with peer and host name verification
// against the system's CAs or a given CA file, SNI for names, answers capped
// in size, redirects not followed. Any HTTP status is a completed exchange.
// Thread-safe: each call has its own io_context.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "net/url.h"

namespace dp::net {

struct HttpRequest {
  std::string method = "GET";
  std::string target;      // "" = the URL's (Url::Target)
  std::string host_header; // "" = the URL's (Url::HostHeader)
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type;  // set (with the body) when not empty
  std::string body;
};

struct HttpOptions {
  std::chrono::milliseconds timeout{10'000};  // the whole exchange
  bool verify_tls = true;                     // https: check the certificate and name
  std::string ca_file;                        // https: trust this PEM instead of the system's
  std::size_t max_answer_bytes = 64 * 1024;
};

struct HttpAnswer {
  int status = 0;
  std::string reason;
  std::string content_type;
  std::string body;
};

// Errors, each message saying which step failed (callers prefix who asked):
//   Timeout "no answer within N s" (any step past the deadline);
//   Unavailable "cannot resolve HOST: ...", kConnectionRefused's text,
//     "cannot connect: ...", "TLS handshake failed: <OpenSSL's reason>",
//     "sending failed: ...", "reading the answer failed: ...";
//   InvalidArgument "cannot load CA file F: ..." or the system CA store.
Result<HttpAnswer> Exchange(const Url& url, const HttpRequest& request,
                            const HttpOptions& options);

// The message of a refused connection (nothing listens at the address).
inline constexpr const char* kConnectionRefused = "cannot connect: connection refused";

// 10000 ms -> "10", 2500 ms -> "2.5".
std::string FormatSeconds(std::chrono::milliseconds ms);

}  // namespace dp::net
