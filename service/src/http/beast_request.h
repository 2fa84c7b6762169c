// How the server reads and answers a request with Beast: the parser's limits,
// what a failed read is answered with, requests refused once read, and the
// conversions between Beast's messages and the router's socket-free Request
// and Response. Pure functions. For server.cc and the request fuzzer
// (fuzz/http_request_fuzzer.cc), which must parse exactly as the server does.
#pragma once

#include <optional>
#include <string>

#include <boost/beast/http.hpp>

#include "http/request.h"
#include "http/response.h"
#include "http/http_limits.h"

namespace dp::http {

using BeastRequest = boost::beast::http::request<boost::beast::http::string_body>;
using BeastResponse = boost::beast::http::response<boost::beast::http::string_body>;
using BeastRequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

// Sets the header and body limits on a fresh parser.
void ApplyLimits(BeastRequestParser& parser, const HttpLimits& limits);

// The answer to a request that could not be read (a malformed head: 400;
// headers over the limit: 431; a body over it: 413), sent before closing; or
// nullopt to close without one (the client went away, the deadline passed,
// the connection broke).
std::optional<Response> ReadErrorResponse(const boost::system::error_code& ec,
                                          const HttpLimits& limits);

// A request read whole that is refused all the same: an HTTP version other
// than 1.0 or 1.1 (505). nullopt: route it.
std::optional<Response> RefuseRequest(const BeastRequest& message);

Request ToRequest(const BeastRequest& message, const std::string& remote);

// The response as it goes on the wire: the server's own headers, the
// handler's, keep-alive or close; for HEAD the length without the body.
BeastResponse ToBeastResponse(Response r, bool head, bool close);

}  // namespace dp::http
