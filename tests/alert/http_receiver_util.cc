#include "alert/http_receiver_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>

#include "base/command_runner.h"

namespace dp::testing {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

}  // namespace

HttpReceiver::HttpReceiver(Options options) : options_(std::move(options)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::listen(listen_fd_, 16);
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

HttpReceiver::~HttpReceiver() {
  stop_ = true;
  ::shutdown(listen_fd_, SHUT_RDWR);  // wakes accept()
  thread_.join();
  ::close(listen_fd_);
}

std::vector<ReceivedRequest> HttpReceiver::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

bool HttpReceiver::WaitForRequests(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
}

void HttpReceiver::Serve() {
  asio::io_context ioc;
  const bool tls = !options_.cert_file.empty();
  asio::ssl::context ctx(asio::ssl::context::tls_server);
  if (tls) {
    ctx.use_certificate_chain_file(options_.cert_file);
    ctx.use_private_key_file(options_.key_file, asio::ssl::context::pem);
  }
  std::size_t served = 0;
  while (!stop_) {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (stop_) break;
      continue;
    }
    timeval tv{5, 0};  // never hang the test on a silent client
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    tcp::socket sock(ioc, tcp::v4(), fd);
    beast::error_code ec;
    beast::flat_buffer buf;
    http::request<http::string_body> req;
    auto handle = [&](auto& stream) {
      http::read(stream, buf, req, ec);
      if (ec) return;
      ReceivedRequest r;
      r.method = std::string(req.method_string());
      r.target = std::string(req.target());
      for (const auto& f : req) {
        std::string name(f.name_string());
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        r.headers[name] = std::string(f.value());
      }
      r.body = req.body();
      int status = options_.statuses.empty()
                       ? 200
                       : options_.statuses[std::min(served, options_.statuses.size() - 1)];
      ++served;
      {
        std::lock_guard lock(mu_);
        requests_.push_back(std::move(r));
      }
      cv_.notify_all();
      auto until = std::chrono::steady_clock::now() + options_.delay;
      while (!stop_ && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      http::response<http::string_body> res{static_cast<http::status>(status), 11};
      res.set(http::field::content_type, "text/plain");
      res.body() = status < 300 ? "ok" : "receiver says no";
      res.prepare_payload();
      http::write(stream, res, ec);
    };
    if (tls) {
      asio::ssl::stream<tcp::socket&> stream(sock, ctx);
      stream.handshake(asio::ssl::stream_base::server, ec);
      if (ec) {
        ++tls_failures_;
      } else {
        handle(stream);
        stream.shutdown(ec);
      }
    } else {
      handle(sock);
    }
    sock.shutdown(tcp::socket::shutdown_both, ec);
    sock.close(ec);
  }
}

int UnusedPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

bool MakeSelfSignedCert(const std::string& dir, const std::string& host, std::string& cert,
                        std::string& key, std::string& why) {
  cert = dir + "/" + host + ".crt";
  key = dir + "/" + host + ".key";
  bool ip = host.find_first_not_of("0123456789.") == std::string::npos;
  PosixCommandRunner runner;
  CommandSpec spec;
  spec.argv = {"openssl",  "req",
               "-x509",    "-newkey",
               "rsa:2048", "-nodes",
               "-keyout",  key,
               "-out",     cert,
               "-days",    "2",
               "-subj",    "/CN=" + host,
               "-addext",  std::string("subjectAltName=") + (ip ? "IP:" : "DNS:") + host};
  spec.timeout = std::chrono::seconds(60);
  auto out = runner.Run(spec);
  if (!out.ok()) {
    why = out.status().ToString();
    return false;
  }
  if (out->exit_code != 0) {
    why = "openssl req failed: " + out->stderr_text;
    return false;
  }
  return true;
}

}  // namespace dp::testing
