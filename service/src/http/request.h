// Request: one HTTP request as plain data, independent of the socket library,
// so the router, the resources and their tests never include Beast.
// Plain value type.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace dp::http {

enum class Method { kGet, kHead, kPost, kPut, kPatch, kDelete, kOptions, kOther };

// "GET" -> kGet, ...; anything unknown -> kOther.
Method ParseMethod(std::string_view name);
std::string_view MethodName(Method method);
// POST, PUT, PATCH, DELETE (and anything unknown): these need the API token.
bool IsMutating(Method method);

struct Request {
  Method method = Method::kGet;
  std::string target = "/";  // the raw request-target: "/api/v1/drives?limit=5"
  std::vector<std::pair<std::string, std::string>> headers;  // as received
  std::string body;
  std::string remote;  // "127.0.0.1:53422", for logs

  // The raw (still percent-encoded) path: target up to '?' or '#'.
  std::string_view Path() const;
  // The raw query string after '?', "" if none.
  std::string_view RawQuery() const;
  // The decoded query parameters (the last one wins for repeated names;
  // malformed escapes are kept as they are).
  std::map<std::string, std::string> Query() const;
  // The first header of that name (case-insensitive), nullptr if absent.
  const std::string* Header(std::string_view name) const;

  // For tests and resources: a request with just a method and a target.
  static Request Make(Method method, std::string target, std::string body = "");
};

// Decodes %XX escapes (and nothing else: '+' stays '+', as in paths).
// InvalidArgument for a truncated or non-hex escape.
Result<std::string> PercentDecode(std::string_view text);

// Case-insensitive ASCII comparison, for header names.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace dp::http
