#include "net/http_client.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "net/beast_names.h"

namespace dp::net {
namespace {

using Deadline = std::chrono::steady_clock::time_point;
using Parser = bhttp::response_parser<bhttp::string_body>;

// Starts one asynchronous operation and runs the io_context until it is done,
// returning its error code: the deadline lives on the stream (tcp_stream's
// expiry), so a silent peer ends the operation with beast::error::timeout.
template <typename Start>
error_code RunOp(asio::io_context& ioc, Start start) {
  error_code result = asio::error::would_block;
  start([&result](error_code ec, auto&&...) { result = ec; });
  ioc.restart();
  ioc.run();
  return result;
}

// OpenSSL's reason is more telling than the category's ("certificate verify
// failed").
std::string Describe(const error_code& ec) {
  if (ec.category() == asio::error::get_ssl_category()) {
    const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value()));
    if (reason) return reason;
    char buf[256];
    ERR_error_string_n(static_cast<unsigned long>(ec.value()), buf, sizeof buf);
    return buf;
  }
  std::string what = ec.message();
  if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  return what;
}

bool IsIpLiteral(const std::string& host) {
  error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

// One exchange's state: the io_context, the deadline, the request, the
// answer being read.
class Exchanger {
 public:
  Exchanger(const Url& url, const HttpRequest& request, const HttpOptions& options)
      : url_(url), options_(options), deadline_(std::chrono::steady_clock::now() + options.timeout) {
    req_.method_string(request.method);
    req_.target(request.target.empty() ? url.Target() : request.target);
    req_.version(11);
    req_.set(bhttp::field::host, request.host_header.empty() ? url.HostHeader() : request.host_header);
    req_.set(bhttp::field::user_agent, std::string("diskpulse/") + DP_VERSION);
    req_.set(bhttp::field::connection, "close");
    for (const auto& [k, v] : request.headers) req_.set(k, v);
    if (!request.content_type.empty()) {
      req_.set(bhttp::field::content_type, request.content_type);
      req_.body() = request.body;
    }
    req_.prepare_payload();
    parser_.body_limit(options.max_answer_bytes);
  }

  Result<HttpAnswer> Run() {
    DP_RETURN_IF_ERROR(Resolve());
    if (!url_.tls) {
      beast::tcp_stream stream(ioc_);
      DP_RETURN_IF_ERROR(Connect(stream));
      DP_RETURN_IF_ERROR(SendAndRead(stream, stream));
      error_code ignored;
      stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    } else {
      DP_RETURN_IF_ERROR(OverTls());
    }
    const auto& res = parser_.get();
    HttpAnswer answer;
    answer.status = static_cast<int>(res.result_int());
    answer.reason = std::string(res.reason());
    const auto ct = res[bhttp::field::content_type];
    answer.content_type = std::string(ct.data(), ct.size());
    answer.body = res.body();
    return answer;
  }

 private:
  Status TimedOut() const {
    return Timeout("no answer within " + FormatSeconds(options_.timeout) + " s");
  }

  // Resolving, bounded by the deadline too.
  Status Resolve() {
    tcp::resolver resolver(ioc_);
    error_code ec = asio::error::would_block;
    resolver.async_resolve(url_.host, std::to_string(url_.port),
                           [&](error_code e, tcp::resolver::results_type r) {
                             ec = e;
                             endpoints_ = std::move(r);
                           });
    ioc_.run_until(deadline_);
    if (ec == asio::error::would_block) {
      resolver.cancel();
      ioc_.restart();
      ioc_.run();
      return TimedOut();
    }
    if (ec) return Unavailable("cannot resolve " + url_.host + ": " + Describe(ec));
    return Status::Ok();
  }

  Status Connect(beast::tcp_stream& s) {
    s.expires_at(deadline_);
    error_code e = RunOp(ioc_, [&](auto h) { s.async_connect(endpoints_, std::move(h)); });
    if (e == beast::error::timeout) return TimedOut();
    if (e == asio::error::connection_refused) return Unavailable(kConnectionRefused);
    if (e) return Unavailable("cannot connect: " + Describe(e));
    return Status::Ok();
  }

  template <typename Stream>
  Status SendAndRead(Stream& stream, beast::tcp_stream& lowest) {
    lowest.expires_at(deadline_);
    error_code e = RunOp(ioc_, [&](auto h) { bhttp::async_write(stream, req_, std::move(h)); });
    if (e == beast::error::timeout) return TimedOut();
    if (e) return Unavailable("sending failed: " + Describe(e));
    e = RunOp(ioc_, [&](auto h) { bhttp::async_read(stream, buffer_, parser_, std::move(h)); });
    if (e == beast::error::timeout) return TimedOut();
    if (e) return Unavailable("reading the answer failed: " + Describe(e));
    return Status::Ok();
  }

  Status OverTls() {
    ssl::context ctx(ssl::context::tls_client);
    ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                    ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    error_code ec;
    if (!options_.ca_file.empty()) {
      ctx.load_verify_file(options_.ca_file, ec);
      if (ec) return InvalidArgument("cannot load CA file " + options_.ca_file + ": " + Describe(ec));
    } else {
      ctx.set_default_verify_paths(ec);
      if (ec) return InvalidArgument("cannot load the system CA store: " + Describe(ec));
    }
    ctx.set_verify_mode(options_.verify_tls ? ssl::verify_peer : ssl::verify_none);
    beast::ssl_stream<beast::tcp_stream> stream(ioc_, ctx);
    if (options_.verify_tls) stream.set_verify_callback(ssl::host_name_verification(url_.host));
    if (!IsIpLiteral(url_.host) &&
        !SSL_set_tlsext_host_name(stream.native_handle(), url_.host.c_str()))
      return Unavailable("cannot set the TLS server name");
    DP_RETURN_IF_ERROR(Connect(beast::get_lowest_layer(stream)));
    beast::get_lowest_layer(stream).expires_at(deadline_);
    error_code e = RunOp(ioc_, [&](auto h) {
      stream.async_handshake(ssl::stream_base::client, std::move(h));
    });
    if (e == beast::error::timeout) return TimedOut();
    if (e) return Unavailable("TLS handshake failed: " + Describe(e));
    DP_RETURN_IF_ERROR(SendAndRead(stream, beast::get_lowest_layer(stream)));
    // A polite close_notify, briefly; many servers just drop the connection.
    beast::get_lowest_layer(stream).expires_after(std::chrono::milliseconds(500));
    RunOp(ioc_, [&](auto h) { stream.async_shutdown(std::move(h)); });
    return Status::Ok();
  }

  const Url& url_;
  const HttpOptions& options_;
  const Deadline deadline_;
  asio::io_context ioc_;
  tcp::resolver::results_type endpoints_;
  bhttp::request<bhttp::string_body> req_;
  beast::flat_buffer buffer_;
  Parser parser_;
};

}  // namespace

Result<HttpAnswer> Exchange(const Url& url, const HttpRequest& request,
                            const HttpOptions& options) {
  try {
    return Exchanger(url, request, options).Run();
  } catch (const std::exception& e) {
    // Boost may throw (e.g. resource exhaustion); nothing crosses the module.
    return Unavailable(e.what());
  }
}

std::string FormatSeconds(std::chrono::milliseconds ms) {
  const auto n = ms.count();
  std::string s = std::to_string(n / 1000);
  if (n % 1000) s += "." + std::to_string((n % 1000) / 100);
  return s;
}

}  // namespace dp::net
