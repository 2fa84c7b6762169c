// Url: the one parser of the http:// and https:// addresses diskpulse is
// given (the webhook sink's endpoint, the CLI's daemon address).
// "https://ntfy.example:8443/disks?x=1" -> {tls, host, port, rest}; an IPv6
// literal is written in brackets and kept without them. Pure function.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace dp::net {

struct Url {
  std::string scheme;  // "http" | "https"
  bool tls = false;
  std::string host;    // without brackets for IPv6 literals
  std::uint16_t port = 0;
  bool explicit_port = false;  // the URL named the port
  std::string rest;    // what follows the host and port: "/path?query", "?q" or ""

  // "/path?query" for the request line ("/" when the URL has none).
  std::string Target() const;
  // "host" or "[v6]", with ":port" when the URL named it: a Host header.
  std::string HostHeader() const;
};

struct UrlRules {
  // The scheme when the URL has none; "" = a scheme is required.
  std::string default_scheme;
  // The port when the URL has none; 0 = the scheme's (80, 443).
  std::uint16_t default_port = 0;
  // user:password@ in the authority is refused (credentials belong in headers).
  bool refuse_userinfo = true;
};

// Errors: InvalidArgument naming what is wrong (scheme, host, port, brackets).
Result<Url> ParseUrl(std::string_view url, const UrlRules& rules = {});

}  // namespace dp::net
