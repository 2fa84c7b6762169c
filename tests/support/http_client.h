// A deliberately small HTTP/1.1 client over plain POSIX sockets for tests:
// independent of the code under test (no Beast), able to send malformed or
// hostile bytes, always with a deadline. Loopback only. Not thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace dp::testing {

using namespace std::chrono_literals;

struct HttpResult {
  bool received = false;  // false: no (complete) response; see error
  std::string error;      // why nothing was received ("connection refused", "timeout")
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string raw;        // everything the server sent

  // The header's value ("" if absent); name in any case.
  std::string Header(const std::string& name) const;
  // The body parsed as JSON (a discarded value if it is not JSON).
  nlohmann::json Json() const;
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Sends `bytes` as they are to host:port, then reads until the server closes
// the connection or one whole response (by Content-Length) has arrived, or
// the timeout passes.
// `bytes` starting with "HEAD " expect a response without body.
HttpResult SendRaw(int port, const std::string& bytes, std::chrono::milliseconds timeout = 5s,
                   const std::string& host = "127.0.0.1");

// A well-formed request with "Connection: close" (and Content-Length when
// there is a body).
HttpResult HttpRequest(int port, const std::string& method, const std::string& target,
                       const std::string& body = "", const HeaderList& headers = {},
                       std::chrono::milliseconds timeout = 5s);
inline HttpResult HttpGet(int port, const std::string& target, const HeaderList& headers = {}) {
  return HttpRequest(port, "GET", target, "", headers);
}

// Parses one response from the start of `raw`; received=false if incomplete.
// A response to HEAD has no body whatever its Content-Length says.
HttpResult ParseHttpResponse(const std::string& raw, bool head = false);

// An open TCP connection kept by the test (slow clients, connection caps).
class TcpConnection {
 public:
  // Connects to 127.0.0.1:port; connected() says whether it worked.
  explicit TcpConnection(int port);
  ~TcpConnection();
  TcpConnection(const TcpConnection&) = delete;
  TcpConnection& operator=(const TcpConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  bool Send(const std::string& bytes);
  // Reads until the peer closes or the timeout passes; returns what arrived.
  std::string ReadUntilClosed(std::chrono::milliseconds timeout, bool* closed = nullptr);

 private:
  int fd_ = -1;
};

// A listening TCP socket on 127.0.0.1 (any free port), to occupy a port.
class TcpListener {
 public:
  TcpListener();
  ~TcpListener();
  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace dp::testing
