// Response: one HTTP response as plain data (status, headers, body), built by
// the router and the resources and written to the socket by the server.
// Plain value type.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace dp::http {

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  // Extra headers (Allow, WWW-Authenticate, Cache-Control, ...). Content-Type
  // and Content-Length are set by the server from the fields above.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // Replaces any header of that name (case-insensitive).
  void SetHeader(std::string_view name, std::string value);
  // The header's value, nullptr if absent.
  const std::string* Header(std::string_view name) const;
};

// 200 (or `status`) with the JSON document as body.
Response JsonResponse(const nlohmann::json& body, int status = 200);

// The uniform error body: {"error":{"code":"not_found","message":"..."}}.
// `code` is a stable, machine-readable word; `message` is for people.
Response ErrorResponse(int status, std::string_view code, std::string_view message);

}  // namespace dp::http
