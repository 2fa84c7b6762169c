#include "http/auth.h"

namespace dp::http {
namespace {

Response Unauthorized(std::string_view message) {
  Response r = ErrorResponse(401, "unauthorized", message);
  r.SetHeader("WWW-Authenticate", "Bearer realm=\"diskpulse\"");
  return r;
}

// The token of an `Authorization: Bearer <token>` header, trimmed; nullopt
// with the reason when there is none.
std::optional<std::string_view> BearerOf(const Request& request, std::string& why) {
  const std::string* header = request.Header("Authorization");
  if (!header) {
    why = "missing 'Authorization: Bearer <token>' header";
    return std::nullopt;
  }
  std::string_view value = *header;
  constexpr std::string_view kScheme = "Bearer ";
  if (value.size() < kScheme.size() || !EqualsIgnoreCase(value.substr(0, kScheme.size()), kScheme)) {
    why = "the Authorization header must be 'Bearer <token>'";
    return std::nullopt;
  }
  std::string_view token = value.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  return token;
}

// nullopt when the request's bearer token is one of `accepted` (empty ones
// never match); else a 401 whose message starts with `need`.
std::optional<Response> CheckAnyOf(const Request& request,
                                   std::initializer_list<std::string_view> accepted,
                                   std::string_view need) {
  std::string why;
  auto token = BearerOf(request, why);
  if (!token) return Unauthorized(std::string(need) + ": " + why);
  bool ok = false;
  for (std::string_view a : accepted) ok |= !a.empty() && ConstantTimeEquals(*token, a);
  if (!ok) return Unauthorized(std::string(need) + ": wrong token");
  return std::nullopt;
}

constexpr std::string_view kReadNeed =
    "this diskpulse answers reads only with a token (read_token or api_token in its "
    "configuration)";

}  // namespace

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // Walk the longer input whole so the time does not reveal a common prefix.
  std::size_t n = a.size() > b.size() ? a.size() : b.size();
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

std::optional<Response> CheckBearerToken(const Request& request, std::string_view api_token) {
  if (api_token.empty()) {
    return ErrorResponse(403, "forbidden",
                         "this call changes things and is disabled: set \"api_token\" in the "
                         "diskpulsed configuration and send it as 'Authorization: Bearer <token>'");
  }
  std::string why;
  auto token = BearerOf(request, why);
  if (!token) return Unauthorized(why);
  if (!ConstantTimeEquals(*token, api_token)) return Unauthorized("wrong API token");
  return std::nullopt;
}

std::optional<Response> CheckReadToken(const Request& request, const AccessTokens& tokens) {
  if (!tokens.reads_need_token) return std::nullopt;
  if (tokens.api_token.empty() && tokens.read_token.empty()) {
    return ErrorResponse(403, "forbidden",
                         "reads from the network are off: this diskpulsed listens beyond "
                         "loopback and has no token to check; set \"read_token\" (or "
                         "\"api_token\") in its configuration, or \"public_read\": true to let "
                         "anyone on the network read");
  }
  return CheckAnyOf(request, {tokens.api_token, tokens.read_token}, kReadNeed);
}

std::optional<Response> CheckMetricsToken(const Request& request, const AccessTokens& tokens) {
  if (tokens.metrics_token.empty()) return CheckReadToken(request, tokens);
  return CheckAnyOf(request, {tokens.metrics_token, tokens.read_token, tokens.api_token},
                    "/metrics needs its token (metrics_token in the configuration)");
}

}  // namespace dp::http
