#include "alert/webhook_sink.h"

#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <memory>
#include <optional>

#include "base/log.h"

namespace dp {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Deadline = std::chrono::steady_clock::time_point;

constexpr std::size_t kMaxAnswerBytes = 64 * 1024;

bool IsIpLiteral(const std::string& host) {
  boost::system::error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

// Starts one asynchronous operation and runs the io_context until it is done,
// returning its error code: the deadline lives on the stream (tcp_stream's
// expiry), so a silent peer ends the operation with beast::error::timeout.
template <typename Start>
beast::error_code RunOp(asio::io_context& ioc, Start start) {
  beast::error_code result = asio::error::would_block;
  start([&result](beast::error_code ec, auto&&...) { result = ec; });
  ioc.restart();
  ioc.run();
  return result;
}

std::string Describe(const beast::error_code& ec) {
  std::string what = ec.message();
  if (ec.category() == asio::error::get_ssl_category()) {
    // OpenSSL's reason is more telling ("certificate verify failed").
    char buf[256];
    ERR_error_string_n(static_cast<unsigned long>(ec.value()), buf, sizeof buf);
    const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value()));
    what = reason ? reason : buf;
  }
  return what;
}

}  // namespace

Result<WebhookUrl> ParseWebhookUrl(std::string_view url) {
  WebhookUrl u;
  std::string_view rest;
  if (url.rfind("https://", 0) == 0) {
    u.tls = true;
    rest = url.substr(8);
  } else if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
  } else {
    return InvalidArgument("webhook URL must start with http:// or https://: '" + std::string(url) +
                           "'");
  }
  std::size_t slash = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, slash);
  u.target = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (!u.target.empty() && u.target[0] == '?') u.target = "/" + u.target;
  if (authority.find('@') != std::string_view::npos)
    return InvalidArgument("webhook URL: user:password@ is not supported; use headers");
  std::string_view host = authority, port;
  if (!authority.empty() && authority[0] == '[') {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos)
      return InvalidArgument("webhook URL: unclosed [ in '" + std::string(url) + "'");
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':')
        return InvalidArgument("webhook URL: bad port in '" + std::string(url) + "'");
      port = authority.substr(close + 2);
    }
  } else if (std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty())
    return InvalidArgument("webhook URL: missing host in '" + std::string(url) + "'");
  u.host = std::string(host);
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
        std::stoi(std::string(port)) > 65535 || std::stoi(std::string(port)) == 0)
      return InvalidArgument("webhook URL: bad port '" + std::string(port) + "'");
    u.port = std::string(port);
    u.default_port = false;
  } else {
    u.port = u.tls ? "443" : "80";
  }
  return u;
}

Result<std::unique_ptr<WebhookSink>> WebhookSink::Create(const WebhookConfig& config) {
  DP_ASSIGN_OR_RETURN(WebhookUrl url, ParseWebhookUrl(config.url));
  if (url.tls && !config.verify_tls)
    LogWarning("alert webhook " + config.name +
               ": TLS certificate verification is OFF (verify_tls: false); anyone on the path "
               "can read and forge these notifications");
  return std::unique_ptr<WebhookSink>(new WebhookSink(config, std::move(url)));
}

std::string WebhookSink::Body(const Notification& n) const {
  if (config_.body_template.empty())
    return NotificationToJson(n).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  bool json = config_.content_type.find("json") != std::string::npos;
  return RenderTemplate(config_.body_template, n, json);
}

Status WebhookSink::Send(const Notification& n) {
  const std::string where = "webhook " + config_.name + " (" + url_.host + ":" + url_.port + ")";
  const auto timeout = std::chrono::seconds(config_.timeout_seconds);
  const Deadline deadline = std::chrono::steady_clock::now() + timeout;
  const std::string timeout_text =
      where + ": no answer within " + std::to_string(config_.timeout_seconds) + " s";

  http::request<http::string_body> req{config_.method == "PUT" ? http::verb::put : http::verb::post,
                                       url_.target, 11};
  std::string host_header =
      url_.host.find(':') != std::string::npos ? "[" + url_.host + "]" : url_.host;
  if (!url_.default_port) host_header += ":" + url_.port;
  req.set(http::field::host, host_header);
  req.set(http::field::user_agent, std::string("diskpulse/") + DP_VERSION);
  req.set(http::field::content_type, config_.content_type);
  req.set(http::field::connection, "close");
  for (const auto& [k, v] : config_.headers) req.set(k, RenderTemplate(v, n, false));
  req.body() = Body(n);
  req.prepare_payload();

  try {
    asio::io_context ioc;
    // Resolve, bounded by the deadline too.
    tcp::resolver resolver(ioc);
    tcp::resolver::results_type endpoints;
    beast::error_code ec = asio::error::would_block;
    resolver.async_resolve(url_.host, url_.port,
                           [&](beast::error_code e, tcp::resolver::results_type r) {
                             ec = e;
                             endpoints = std::move(r);
                           });
    ioc.run_for(timeout);
    if (ec == asio::error::would_block) {
      resolver.cancel();
      ioc.restart();
      ioc.run();
      return Timeout(where + ": cannot resolve " + url_.host + " within " +
                     std::to_string(config_.timeout_seconds) + " s");
    }
    if (ec) return Unavailable(where + ": cannot resolve " + url_.host + ": " + ec.message());

    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxAnswerBytes);

    auto connect = [&](beast::tcp_stream& s) -> Status {
      s.expires_at(deadline);
      beast::error_code e = RunOp(ioc, [&](auto h) { s.async_connect(endpoints, std::move(h)); });
      if (e == beast::error::timeout) return Timeout(timeout_text);
      if (e) return Unavailable(where + ": cannot connect: " + e.message());
      return Status::Ok();
    };
    auto exchange = [&](auto& stream, beast::tcp_stream& lowest) -> Status {
      lowest.expires_at(deadline);
      beast::error_code e =
          RunOp(ioc, [&](auto h) { http::async_write(stream, req, std::move(h)); });
      if (e == beast::error::timeout) return Timeout(timeout_text);
      if (e) return Unavailable(where + ": sending failed: " + Describe(e));
      e = RunOp(ioc, [&](auto h) { http::async_read(stream, buffer, parser, std::move(h)); });
      if (e == beast::error::timeout) return Timeout(timeout_text);
      if (e) return Unavailable(where + ": reading the answer failed: " + Describe(e));
      return Status::Ok();
    };

    if (!url_.tls) {
      beast::tcp_stream stream(ioc);
      DP_RETURN_IF_ERROR(connect(stream));
      DP_RETURN_IF_ERROR(exchange(stream, stream));
      beast::error_code ignored;
      stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    } else {
      asio::ssl::context ctx(asio::ssl::context::tls_client);
      ctx.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                      asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                      asio::ssl::context::no_tlsv1_1);
      beast::error_code cec;
      if (!config_.ca_file.empty()) {
        ctx.load_verify_file(config_.ca_file, cec);
        if (cec)
          return Unavailable(where + ": cannot load CA file " + config_.ca_file + ": " +
                             Describe(cec));
      } else {
        ctx.set_default_verify_paths(cec);
        if (cec) return Unavailable(where + ": cannot load the system CA store: " + cec.message());
      }
      ctx.set_verify_mode(config_.verify_tls ? asio::ssl::verify_peer : asio::ssl::verify_none);
      beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
      if (config_.verify_tls)
        stream.set_verify_callback(asio::ssl::host_name_verification(url_.host));
      if (!IsIpLiteral(url_.host) &&
          !SSL_set_tlsext_host_name(stream.native_handle(), url_.host.c_str()))
        return Unavailable(where + ": cannot set TLS server name");
      DP_RETURN_IF_ERROR(connect(beast::get_lowest_layer(stream)));
      beast::get_lowest_layer(stream).expires_at(deadline);
      beast::error_code e = RunOp(ioc, [&](auto h) {
        stream.async_handshake(asio::ssl::stream_base::client, std::move(h));
      });
      if (e == beast::error::timeout) return Timeout(timeout_text);
      if (e) return Unavailable(where + ": TLS handshake failed: " + Describe(e));
      DP_RETURN_IF_ERROR(exchange(stream, beast::get_lowest_layer(stream)));
      // A polite close_notify, briefly; many servers just drop the connection.
      beast::get_lowest_layer(stream).expires_after(std::chrono::milliseconds(500));
      RunOp(ioc, [&](auto h) { stream.async_shutdown(std::move(h)); });
    }

    const auto& res = parser.get();
    unsigned code = res.result_int();
    if (code >= 200 && code < 300) return Status::Ok();
    std::string body = res.body().substr(0, 200);
    for (char& c : body)
      if (c == '\n' || c == '\r') c = ' ';
    return Unavailable(where + ": HTTP " + std::to_string(code) + " " + std::string(res.reason()) +
                       (body.empty() ? "" : ": " + body));
  } catch (const std::exception& e) {
    // Boost may throw (e.g. resource exhaustion); nothing crosses the module.
    return Unavailable(where + ": " + e.what());
  }
}

}  // namespace dp
