#include "net/http_client.h"


#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "net/beast_names.h"
#include "net/tls_client.h"

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
    error_code ec;
    if (!ResolveBefore(ioc_, url_.host, url_.port, deadline_, endpoints_, ec)) return TimedOut();
    if (ec) return Unavailable("cannot resolve " + url_.host + ": " + DescribeError(ec));
    return Status::Ok();
  }

  Status Connect(beast::tcp_stream& s) {
    s.expires_at(deadline_);
    error_code e = RunOp(ioc_, [&](auto h) { s.async_connect(endpoints_, std::move(h)); });
    if (e == beast::error::timeout) return TimedOut();
    if (e == asio::error::connection_refused) return Unavailable(kConnectionRefused);
    if (e) return Unavailable("cannot connect: " + DescribeError(e));
    return Status::Ok();
  }

  template <typename Stream>
  Status SendAndRead(Stream& stream, beast::tcp_stream& lowest) {
    lowest.expires_at(deadline_);
    error_code e = RunOp(ioc_, [&](auto h) { bhttp::async_write(stream, req_, std::move(h)); });
    if (e == beast::error::timeout) return TimedOut();
    if (e) return Unavailable("sending failed: " + DescribeError(e));
    e = RunOp(ioc_, [&](auto h) { bhttp::async_read(stream, buffer_, parser_, std::move(h)); });
    if (e == beast::error::timeout) return TimedOut();
    if (e) return Unavailable("reading the answer failed: " + DescribeError(e));
    return Status::Ok();
  }

  Status OverTls() {
    ssl::context ctx(ssl::context::tls_client);
    DP_RETURN_IF_ERROR(SetUpClientTls(ctx, options_.ca_file, options_.verify_tls));
    beast::ssl_stream<beast::tcp_stream> stream(ioc_, ctx);
    DP_RETURN_IF_ERROR(ExpectServerName(stream, url_.host, options_.verify_tls));
    DP_RETURN_IF_ERROR(Connect(beast::get_lowest_layer(stream)));
    beast::get_lowest_layer(stream).expires_at(deadline_);
    error_code e = RunOp(ioc_, [&](auto h) {
      stream.async_handshake(ssl::stream_base::client, std::move(h));
    });
    if (e == beast::error::timeout) return TimedOut();
    if (e) return Unavailable("TLS handshake failed: " + DescribeError(e));
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
