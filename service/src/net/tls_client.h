// What the blocking clients of this module (HTTP, SMTP) share about their
// connections: how an error reads, how a client TLS context trusts servers
// and names the one it expects, and resolving under a deadline (blocking
// Asio calls have none).
#pragma once

#include <openssl/ssl.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <chrono>
#include <string>

#include "base/status.h"
#include "net/beast_names.h"

namespace dp::net {

// OpenSSL's reason where there is one ("certificate verify failed"), which
// says more than the category's text; otherwise the message, lower-cased first.
std::string DescribeError(const error_code& ec);

// A client context for TLS 1.2 and later, trusting ca_file ("" = the
// system's store) and checking the peer when verify is set.
// Errors: InvalidArgument "cannot load CA file F: ..." or the system store.
Status SetUpClientTls(ssl::context& ctx, const std::string& ca_file, bool verify);

// Sets the expected host name (peer check when verify) and SNI (names only)
// on one TLS stream's native handle.
template <typename TlsStream>
Status ExpectServerName(TlsStream& stream, const std::string& host, bool verify) {
  if (verify) stream.set_verify_callback(ssl::host_name_verification(host));
  error_code not_ip;
  asio::ip::make_address(host, not_ip);
  if (not_ip && !SSL_set_tlsext_host_name(stream.native_handle(), host.c_str()))
    return Unavailable("cannot set the TLS server name");
  return Status::Ok();
}

// Resolves host:port, running ioc until deadline. Returns true when done
// (ec tells how), false when the deadline passed first.
bool ResolveBefore(asio::io_context& ioc, const std::string& host, int port,
                   std::chrono::steady_clock::time_point deadline, tcp::resolver::results_type& out,
                   error_code& ec);

}  // namespace dp::net
