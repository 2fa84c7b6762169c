#include "http/beast_request.h"

namespace dp::http {
namespace {

namespace bhttp = boost::beast::http;

std::string ToString(boost::beast::string_view s) { return std::string(s.data(), s.size()); }

}  // namespace

void ApplyLimits(BeastRequestParser& parser, const HttpLimits& limits) {
  parser.header_limit(limits.max_header_bytes);
  parser.body_limit(limits.max_body_bytes);
}

std::optional<Response> ReadErrorResponse(const boost::system::error_code& ec,
                                          const HttpLimits& limits) {
  if (ec == bhttp::error::body_limit) {
    return ErrorResponse(413, "payload_too_large",
                         "the request body is larger than the limit of " +
                             std::to_string(limits.max_body_bytes) +
                             " bytes (http.max_body_bytes)");
  }
  if (ec == bhttp::error::header_limit) {
    return ErrorResponse(431, "headers_too_large",
                         "the request headers are larger than the limit of " +
                             std::to_string(limits.max_header_bytes) +
                             " bytes (http.max_header_bytes)");
  }
  // The client closed between requests: nobody to answer.
  if (ec == bhttp::error::end_of_stream) return std::nullopt;
  if (ec && ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category()) {
    return ErrorResponse(400, "bad_request", "malformed HTTP request: " + ec.message());
  }
  return std::nullopt;
}

std::optional<Response> RefuseRequest(const BeastRequest& message) {
  if (message.version() != 10 && message.version() != 11) {
    return ErrorResponse(505, "http_version_not_supported",
                         "HTTP/" + std::to_string(message.version() / 10) + "." +
                             std::to_string(message.version() % 10) +
                             " is not supported; use HTTP/1.1");
  }
  return std::nullopt;
}

Request ToRequest(const BeastRequest& m, const std::string& remote) {
  Request r;
  r.method = ParseMethod(ToString(m.method_string()));
  r.target = ToString(m.target());
  for (const auto& field : m)
    r.headers.emplace_back(ToString(field.name_string()), ToString(field.value()));
  r.body = m.body();
  r.remote = remote;
  return r;
}

BeastResponse ToBeastResponse(Response r, bool head, bool close) {
  BeastResponse res;
  res.version(11);
  res.result(static_cast<unsigned>(r.status));
  res.set(bhttp::field::server, "diskpulsed/" DP_VERSION);
  res.set(bhttp::field::content_type, r.content_type);
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  for (const auto& [name, value] : r.headers) res.set(name, value);
  res.keep_alive(!close);
  if (head) {
    res.content_length(r.body.size());
  } else {
    res.body() = std::move(r.body);
    res.prepare_payload();
  }
  return res;
}

}  // namespace dp::http
