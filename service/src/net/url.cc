#include "net/url.h"

namespace dp::net {

std::string Url::Target() const {
  if (rest.empty()) return "/";
  return rest.front() == '/' ? rest : "/" + rest;
}

std::string Url::HostHeader() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (explicit_port) h += ":" + std::to_string(port);
  return h;
}

Result<Url> ParseUrl(std::string_view url, const UrlRules& rules) {
  const std::string text(url);
  Url u;
  std::string_view rest = url;
  if (auto end = rest.find("://"); end != std::string_view::npos) {
    u.scheme = std::string(rest.substr(0, end));
    rest = rest.substr(end + 3);
  } else {
    u.scheme = rules.default_scheme;
  }
  if (u.scheme != "http" && u.scheme != "https")
    return InvalidArgument("URL must start with http:// or https://: '" + text + "'");
  u.tls = u.scheme == "https";
  const std::size_t end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, end);
  u.rest = end == std::string_view::npos ? "" : std::string(rest.substr(end));
  if (authority.find('@') != std::string_view::npos && rules.refuse_userinfo)
    return InvalidArgument("URL: user:password@ is not supported; use headers: '" + text + "'");
  std::string_view host = authority, port;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return InvalidArgument("URL: unclosed [ in '" + text + "'");
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return InvalidArgument("URL: bad port in '" + text + "'");
      port = authority.substr(close + 2);
    }
  } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return InvalidArgument("URL: missing host in '" + text + "'");
  u.host = std::string(host);
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
        std::stoi(std::string(port)) > 65535 || std::stoi(std::string(port)) == 0)
      return InvalidArgument("URL: bad port '" + std::string(port) + "' in '" + text + "'");
    u.port = static_cast<std::uint16_t>(std::stoi(std::string(port)));
    u.explicit_port = true;
  } else {
    u.port = rules.default_port ? rules.default_port : u.tls ? 443 : 80;
  }
  return u;
}

}  // namespace dp::net
