#include "http/auth.h"

namespace dp::http {
namespace {

Response Unauthorized(std::string_view message) {
  Response r = ErrorResponse(401, "unauthorized", message);
  r.SetHeader("WWW-Authenticate", "Bearer realm=\"diskpulse\"");
  return r;
}

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
  const std::string* header = request.Header("Authorization");
  if (!header) return Unauthorized("missing 'Authorization: Bearer <api_token>' header");
  std::string_view value = *header;
  constexpr std::string_view kScheme = "Bearer ";
  if (value.size() < kScheme.size() || !EqualsIgnoreCase(value.substr(0, kScheme.size()), kScheme))
    return Unauthorized("the Authorization header must be 'Bearer <api_token>'");
  std::string_view token = value.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  if (!ConstantTimeEquals(token, api_token)) return Unauthorized("wrong API token");
  return std::nullopt;
}

}  // namespace dp::http
