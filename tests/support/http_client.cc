#include "support/http_client.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dp::testing {
namespace {

using Clock = std::chrono::steady_clock;

std::string Lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

int ConnectLoopback(const std::string& host, int port, std::string* error) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = std::strerror(errno);
    return -1;
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    *error = "bad address " + host;
    ::close(fd);
    return -1;
  }
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    *error = std::strerror(errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

bool SendAll(int fd, const std::string& bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    off += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads until EOF, a complete response, or the deadline. Returns false on timeout.
bool ReadResponse(int fd, Clock::time_point deadline, std::string& raw, bool stop_at_response,
                  bool* closed, bool head = false) {
  char buf[16384];
  while (true) {
    if (stop_at_response && ParseHttpResponse(raw, head).received) return true;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // closed (or reset)
      if (closed) *closed = true;
      return true;
    }
    raw.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

std::string HttpResult::Header(const std::string& name) const {
  auto it = headers.find(Lower(name));
  return it == headers.end() ? std::string() : it->second;
}

nlohmann::json HttpResult::Json() const {
  return nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
}

HttpResult ParseHttpResponse(const std::string& raw, bool head) {
  HttpResult r;
  r.raw = raw;
  auto head_end = raw.find("\r\n\r\n");
  if (head_end == std::string::npos) {
    r.error = "incomplete response";
    return r;
  }
  std::string block = raw.substr(0, head_end);
  auto line_end = block.find("\r\n");
  std::string status_line = block.substr(0, line_end);
  if (status_line.rfind("HTTP/1.", 0) != 0 || status_line.size() < 12) {
    r.error = "not an HTTP response: " + status_line;
    return r;
  }
  r.status = std::atoi(status_line.c_str() + 9);
  std::size_t pos = line_end == std::string::npos ? block.size() : line_end + 2;
  while (pos < block.size()) {
    auto end = block.find("\r\n", pos);
    if (end == std::string::npos) end = block.size();
    std::string line = block.substr(pos, end - pos);
    auto colon = line.find(':');
    if (colon != std::string::npos) {
      std::string value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      r.headers[Lower(line.substr(0, colon))] = value;
    }
    pos = end + 2;
  }
  std::string body = raw.substr(head_end + 4);
  auto cl = r.headers.find("content-length");
  if (head) {
    body.clear();
  } else if (cl != r.headers.end()) {
    std::size_t want = std::stoul(cl->second);
    if (body.size() < want) {
      r.error = "incomplete body";
      return r;
    }
    body.resize(want);
  }
  r.body = std::move(body);
  r.received = true;
  return r;
}

HttpResult SendRaw(int port, const std::string& bytes, std::chrono::milliseconds timeout,
                   const std::string& host) {
  HttpResult r;
  int fd = ConnectLoopback(host, port, &r.error);
  if (fd < 0) return r;
  auto deadline = Clock::now() + timeout;
  std::string raw;
  bool head = bytes.rfind("HEAD ", 0) == 0;
  bool sent = SendAll(fd, bytes);
  bool done = ReadResponse(fd, deadline, raw, /*stop_at_response=*/true, nullptr, head);
  ::close(fd);
  HttpResult parsed = ParseHttpResponse(raw, head);
  if (!parsed.received) {
    parsed.error = !done ? "timeout" : !sent ? "send failed" : parsed.error;
  }
  return parsed;
}

HttpResult HttpRequest(int port, const std::string& method, const std::string& target,
                       const std::string& body, const HeaderList& headers,
                       std::chrono::milliseconds timeout) {
  std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" +
                    std::to_string(port) + "\r\nConnection: close\r\n";
  for (const auto& [k, v] : headers) req += k + ": " + v + "\r\n";
  if (!body.empty() || method == "POST" || method == "PUT")
    req += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  req += "\r\n" + body;
  return SendRaw(port, req, timeout);
}

TcpConnection::TcpConnection(int port) {
  std::string error;
  fd_ = ConnectLoopback("127.0.0.1", port, &error);
}

TcpConnection::~TcpConnection() {
  if (fd_ >= 0) ::close(fd_);
}

bool TcpConnection::Send(const std::string& bytes) { return fd_ >= 0 && SendAll(fd_, bytes); }

std::string TcpConnection::ReadUntilClosed(std::chrono::milliseconds timeout, bool* closed) {
  std::string raw;
  if (closed) *closed = false;
  if (fd_ < 0) return raw;
  ReadResponse(fd_, Clock::now() + timeout, raw, /*stop_at_response=*/false, closed);
  return raw;
}

TcpListener::TcpListener() {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd_, 4) != 0)
    return;
  socklen_t len = sizeof addr;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
}

TcpListener::~TcpListener() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace dp::testing
