#include "e2e/webhook_receiver_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <strings.h>

namespace dp::testing {

WebhookReceiver::WebhookReceiver(int status) : status_(status) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::listen(fd_, 16) != 0 || ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    return;
  port_ = ntohs(a.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

WebhookReceiver::~WebhookReceiver() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
}

std::vector<std::string> WebhookReceiver::bodies() const {
  std::lock_guard lock(mu_);
  return bodies_;
}

bool WebhookReceiver::WaitFor(const std::string& needle, std::chrono::milliseconds timeout) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    for (const auto& b : bodies())
      if (b.find(needle) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void WebhookReceiver::Serve() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    std::string in;
    std::size_t want = std::string::npos;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd q{c, POLLIN, 0};
      if (::poll(&q, 1, 100) <= 0) continue;
      char buf[4096];
      ssize_t n = ::read(c, buf, sizeof buf);
      if (n <= 0) break;
      in.append(buf, static_cast<std::size_t>(n));
      std::size_t end = in.find("\r\n\r\n");
      if (end != std::string::npos && want == std::string::npos) {
        std::size_t length = 0;
        for (std::size_t pos = 0; pos < end;) {
          std::size_t eol = in.find("\r\n", pos);
          std::string line = in.substr(pos, eol - pos);
          if (::strncasecmp(line.c_str(), "content-length:", 15) == 0)
            length = std::strtoull(line.c_str() + 15, nullptr, 10);
          pos = eol + 2;
        }
        want = end + 4 + length;
      }
      if (want != std::string::npos && in.size() >= want) break;
    }
    std::size_t end = in.find("\r\n\r\n");
    {
      std::lock_guard lock(mu_);
      bodies_.push_back(end == std::string::npos ? in : in.substr(end + 4));
    }
    std::string reply = "HTTP/1.1 " + std::to_string(status_) +
                        (status_ == 200 ? " OK" : " Error") +
                        "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    (void)!::write(c, reply.data(), reply.size());
    ::close(c);
  }
}

}  // namespace dp::testing
