// The short names for Boost.Asio and Boost.Beast that the daemon's HTTP server
// and the one HTTP client (net/http_client.h) use, declared once. Pull them in with
// `using namespace dp::net;` inside a source file's own namespace.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/http.hpp>

namespace dp::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;
using error_code = boost::system::error_code;

}  // namespace dp::net
