// Bearer-token check for mutating API calls (docs/api.md).
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
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

// The tokens a daemon accepts, and whether reads need one (config's
// ReadsNeedToken: a listener beyond loopback, or public_read false).
struct AccessTokens {
  std::string api_token;      // every call
  std::string read_token;     // reads only
  std::string metrics_token;  // /metrics only; "" = /metrics is a read like any other
  bool reads_need_token = false;
};

// For a read (GET/HEAD of the API): nullopt when reads are open or the request
// carries api_token or read_token; otherwise
//   - 401 with WWW-Authenticate and a message saying a token is needed (the
//     page turns it into a token prompt),
//   - 403 when no token is configured that could open reads (the message says
//     which keys to set).
std::optional<Response> CheckReadToken(const Request& request, const AccessTokens& tokens);

// For /metrics: with metrics_token set, it (or a read token) is always needed,
// since Prometheus sends one fixed bearer token; without, CheckReadToken.
std::optional<Response> CheckMetricsToken(const Request& request, const AccessTokens& tokens);

}  // namespace dp::http
