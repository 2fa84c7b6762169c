// The CLI's only Beast translation unit. Async operations driven by a local
// io_context give every exchange one deadline (sync Asio calls have none).
#include "cli/daemon_client.h"

#include <cstdlib>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "base/strings.h"
#include "http/beast_names.h"

namespace dp::cli {
namespace {

using namespace dp::net;

constexpr std::uint64_t kMaxReplyBytes = 64ULL << 20;

// Connect, (handshake,) write, read: each step starts the next; the first
// error ends the chain. `handshake` is a no-op for plain TCP.
template <class Stream, class Handshake>
error_code Exchange(asio::io_context& ioc, Stream& stream, const tcp::resolver::results_type& eps,
                    Handshake handshake, bhttp::request<bhttp::string_body>& req,
                    bhttp::response_parser<bhttp::string_body>& parser,
                    std::chrono::milliseconds timeout) {
  beast::flat_buffer buffer;
  error_code result = asio::error::would_block;
  auto& lowest = beast::get_lowest_layer(stream);
  lowest.expires_after(timeout);
  lowest.async_connect(eps, [&](error_code ec, const tcp::endpoint&) {
    if (ec) {
      result = ec;
      return;
    }
    handshake([&](error_code hec) {
      if (hec) {
        result = hec;
        return;
      }
      bhttp::async_write(stream, req, [&](error_code wec, std::size_t) {
        if (wec) {
          result = wec;
          return;
        }
        bhttp::async_read(stream, buffer, parser,
                          [&](error_code rec, std::size_t) { result = rec; });
      });
    });
  });
  ioc.run();
  return result;
}

// 10000 ms -> "10", 2500 ms -> "2.5".
std::string FormatSeconds(std::chrono::milliseconds ms) {
  auto n = ms.count();
  std::string s = std::to_string(n / 1000);
  if (n % 1000) s += "." + std::to_string((n % 1000) / 100);
  return s;
}

}  // namespace

Result<DaemonUrl> ParseDaemonUrl(std::string_view url) {
  DaemonUrl out;
  std::string_view rest = url;
  auto scheme_end = rest.find("://");
  if (scheme_end != std::string_view::npos) {
    out.scheme = std::string(rest.substr(0, scheme_end));
    rest = rest.substr(scheme_end + 3);
  }
  if (out.scheme != "http" && out.scheme != "https")
    return InvalidArgument("URL must start with http:// or https://, found '" + std::string(url) +
                           "'");
  auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  out.base_path = std::string(path);
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) return InvalidArgument("bad IPv6 address in " + std::string(url));
    out.host = std::string(authority.substr(1, close - 1));
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return InvalidArgument("bad URL " + std::string(url));
      port = authority.substr(close + 2);
    }
  } else {
    auto colon = authority.rfind(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (out.host.empty()) return InvalidArgument("URL without a host: '" + std::string(url) + "'");
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
        std::stoi(std::string(port)) > 65535 || std::stoi(std::string(port)) == 0)
      return InvalidArgument("bad port in URL '" + std::string(url) + "'");
    out.port = static_cast<std::uint16_t>(std::stoi(std::string(port)));
  }
  return out;
}

DaemonClientOptions DaemonClientOptionsFromEnvironment() {
  DaemonClientOptions o;
  if (const char* u = std::getenv("DISKPULSE_URL"); u && *u) o.url = u;
  if (const char* t = std::getenv("DISKPULSE_TOKEN"); t && *t) o.token = t;
  return o;
}

DaemonClient::DaemonClient(DaemonClientOptions options, DaemonUrl url)
    : options_(std::move(options)), url_(std::move(url)) {
  bool v6 = url_.host.find(':') != std::string::npos;
  display_url_ = url_.scheme + "://" + (v6 ? "[" + url_.host + "]" : url_.host) + ":" +
                 std::to_string(url_.port) + url_.base_path;
}

Result<DaemonClient> DaemonClient::Create(DaemonClientOptions options) {
  DP_ASSIGN_OR_RETURN(DaemonUrl url, ParseDaemonUrl(options.url));
  return DaemonClient(std::move(options), std::move(url));
}

Result<HttpReply> DaemonClient::Send(std::string_view method, std::string_view path,
                                     std::string body, std::string_view content_type) const {
  asio::io_context ioc;
  error_code ec;
  tcp::resolver resolver(ioc);
  auto endpoints = resolver.resolve(url_.host, std::to_string(url_.port), ec);
  if (ec)
    return Unavailable("cannot reach diskpulsed at " + display_url_ + ": cannot resolve " +
                       url_.host + ": " + LowerFirst(ec.message()));

  bhttp::request<bhttp::string_body> req;
  req.method_string(beast::string_view(method.data(), method.size()));
  req.target(url_.base_path + std::string(path));
  req.version(11);
  req.set(bhttp::field::host, url_.host + ":" + std::to_string(url_.port));
  req.set(bhttp::field::user_agent, "diskpulse/" DP_VERSION);
  req.set(bhttp::field::accept, "application/json");
  req.set(bhttp::field::connection, "close");
  if (!options_.token.empty()) req.set(bhttp::field::authorization, "Bearer " + options_.token);
  if (!body.empty() || method == "POST" || method == "PUT") {
    req.set(bhttp::field::content_type, std::string(content_type));
    req.body() = std::move(body);
  }
  req.prepare_payload();

  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(kMaxReplyBytes);
  if (url_.scheme == "https") {
    ssl::context ctx(ssl::context::tls_client);
    if (options_.insecure) {
      ctx.set_verify_mode(ssl::verify_none);
    } else {
      if (!options_.ca_file.empty()) ctx.load_verify_file(options_.ca_file, ec);
      else ctx.set_default_verify_paths(ec);
      if (ec) return InvalidArgument("cannot load trusted certificates: " + ec.message());
      ctx.set_verify_mode(ssl::verify_peer);
    }
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    if (!options_.insecure) stream.set_verify_callback(ssl::host_name_verification(url_.host));
    // SNI, for names only (not addresses).
    error_code addr_ec;
    asio::ip::make_address(url_.host, addr_ec);
    if (addr_ec) SSL_set_tlsext_host_name(stream.native_handle(), url_.host.c_str());
    ec = Exchange(
        ioc, stream, endpoints,
        [&](auto next) { stream.async_handshake(ssl::stream_base::client, next); }, req, parser,
        options_.timeout);
  } else {
    beast::tcp_stream stream(ioc);
    ec = Exchange(
        ioc, stream, endpoints, [](auto next) { next(error_code()); }, req, parser,
        options_.timeout);
  }
  if (ec == beast::error::timeout) {
    return Timeout("diskpulsed at " + display_url_ + " did not answer within " +
                   FormatSeconds(options_.timeout) + " s");
  }
  if (ec == asio::error::connection_refused) {
    return Unavailable("cannot reach diskpulsed at " + display_url_ +
                       ": connection refused (is it running?)");
  }
  if (ec) return Unavailable("cannot reach diskpulsed at " + display_url_ + ": " +
                             LowerFirst(ec.message()));
  const auto& res = parser.get();
  HttpReply reply;
  reply.status = static_cast<int>(res.result_int());
  auto ct = res[bhttp::field::content_type];
  reply.content_type = std::string(ct.data(), ct.size());
  reply.body = res.body();
  return reply;
}

Result<nlohmann::json> DaemonClient::DecodeJson(Result<HttpReply> reply,
                                                std::string_view path) const {
  if (!reply.ok()) return reply.status();
  auto doc = nlohmann::json::parse(reply->body, nullptr, /*allow_exceptions=*/false);
  int st = reply->status;
  if (st >= 200 && st < 300) {
    if (doc.is_discarded())
      return Corrupt("diskpulsed answered " + std::string(path) + " with something not JSON");
    return doc;
  }
  std::string message = "HTTP " + std::to_string(st);
  if (!doc.is_discarded() && doc.contains("error") && doc["error"].is_object() &&
      doc["error"].value("message", "") != "")
    message = doc["error"]["message"].get<std::string>() + " (HTTP " + std::to_string(st) + ")";
  message = "diskpulsed: " + std::string(path) + ": " + message;
  if (st == 401 || st == 403) return PermissionDenied(message);
  if (st == 404) return NotFound(message);
  if (st == 400 || st == 405 || st == 413) return InvalidArgument(message);
  return Unavailable(message);
}

Result<nlohmann::json> DaemonClient::GetJson(std::string_view path) const {
  return DecodeJson(Send("GET", path), path);
}

Result<nlohmann::json> DaemonClient::PostJson(std::string_view path,
                                              const nlohmann::json& body) const {
  return DecodeJson(Send("POST", path, body.dump()), path);
}

}  // namespace dp::cli
