#include "http/response.h"

#include "http/request.h"

namespace dp::http {

void Response::SetHeader(std::string_view name, std::string value) {
  for (auto& [k, v] : headers) {
    if (EqualsIgnoreCase(k, name)) {
      v = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::string(name), std::move(value));
}

const std::string* Response::Header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (EqualsIgnoreCase(k, name)) return &v;
  return nullptr;
}

Response JsonResponse(const nlohmann::json& body, int status) {
  Response r;
  r.status = status;
  r.content_type = "application/json";
  // Replace invalid UTF-8 rather than throwing: strings may come from devices.
  r.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  r.body.push_back('\n');
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

Response ErrorResponse(int status, std::string_view code, std::string_view message) {
  nlohmann::json body = {{"error", {{"code", code}, {"message", message}}}};
  return JsonResponse(body, status);
}

std::string_view StatusReason(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return "";
  }
}

}  // namespace dp::http
