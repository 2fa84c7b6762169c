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

}  // namespace dp::http
