#include "net/tls_client.h"

#include <openssl/err.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/error.hpp>

namespace dp::net {

std::string DescribeError(const error_code& ec) {
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

Status SetUpClientTls(ssl::context& ctx, const std::string& ca_file, bool verify) {
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                  ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  error_code ec;
  if (!ca_file.empty()) {
    ctx.load_verify_file(ca_file, ec);
    if (ec) return InvalidArgument("cannot load CA file " + ca_file + ": " + DescribeError(ec));
  } else {
    ctx.set_default_verify_paths(ec);
    if (ec) return InvalidArgument("cannot load the system CA store: " + DescribeError(ec));
  }
  ctx.set_verify_mode(verify ? ssl::verify_peer : ssl::verify_none);
  return Status::Ok();
}

bool ResolveBefore(asio::io_context& ioc, const std::string& host, int port,
                   std::chrono::steady_clock::time_point deadline, tcp::resolver::results_type& out,
                   error_code& ec) {
  tcp::resolver resolver(ioc);
  ec = asio::error::would_block;
  resolver.async_resolve(host, std::to_string(port),
                         [&](error_code e, tcp::resolver::results_type r) {
                           ec = e;
                           out = std::move(r);
                         });
  ioc.run_until(deadline);
  if (ec != asio::error::would_block) return true;
  resolver.cancel();
  ioc.restart();
  ioc.run();
  return false;
}

}  // namespace dp::net
