// Bearer-token check for mutating API calls (README.md "HTTP API").
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string_view>

#include "http/request.h"
#include "http/response.h"

namespace dp::http {

// Compares in time that depends only on the lengths, not on where the inputs
// differ, so a remote caller cannot guess a token byte by byte.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// nullopt when the request carries `Authorization: Bearer <api_token>`;
// otherwise the response to send instead:
//   - 403 when no api_token is configured (mutating calls are disabled and the
//     message says how to enable them),
//   - 401 with `WWW-Authenticate: Bearer` when the header is missing, not a
//     Bearer token, or the token is wrong.
std::optional<Response> CheckBearerToken(const Request& request, std::string_view api_token);

}  // namespace dp::http
