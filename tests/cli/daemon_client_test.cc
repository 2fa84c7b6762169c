// DaemonClient's URL parsing and its behaviour against a tiny local server
// (tests/support's TcpListener is not enough: this serves one canned reply).
#include "cli/daemon_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include <gtest/gtest.h>

#include "cli/text_table.h"

namespace dp::cli {
namespace {

TEST(ParseDaemonUrl, Forms) {
  auto a = ParseDaemonUrl("http://127.0.0.1:8470");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->scheme, "http");
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 8470);
  EXPECT_EQ(a->base_path, "");
  auto b = ParseDaemonUrl("https://nas.local/diskpulse/");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->scheme, "https");
  EXPECT_EQ(b->host, "nas.local");
  EXPECT_EQ(b->port, 8470);
  EXPECT_EQ(b->base_path, "/diskpulse");
  auto c = ParseDaemonUrl("[::1]:9000");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->host, "::1");
  EXPECT_EQ(c->port, 9000);
  EXPECT_FALSE(ParseDaemonUrl("ftp://x").ok());
  EXPECT_FALSE(ParseDaemonUrl("http://:80").ok());
  EXPECT_FALSE(ParseDaemonUrl("http://x:99999").ok());
  EXPECT_FALSE(ParseDaemonUrl("http://x:abc").ok());
}

// Accepts one connection, reads the request, answers `reply`, closes.
class OneShotServer {
 public:
  explicit OneShotServer(std::string reply, bool answer = true) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(fd_, 1);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this, reply, answer] {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      char buf[8192];
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n > 0) request_.assign(buf, static_cast<std::size_t>(n));
      if (answer) {
        ::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      }
      ::close(c);
    });
  }
  ~OneShotServer() {
    ::shutdown(fd_, SHUT_RDWR);
    thread_.join();
    ::close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::string& request() {
    thread_.join();
    thread_ = std::thread([] {});
    return request_;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
  std::string request_;
};

std::string Reply(int status, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) +
         " X\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

TEST(DaemonClient, SendsTokenAndParsesJson) {
  OneShotServer server(Reply(200, R"({"ok":true})"));
  DaemonClientOptions o;
  o.url = server.url();
  o.token = "tok-1";
  auto client = DaemonClient::Create(o);
  ASSERT_TRUE(client.ok());
  auto j = client->PostJson("/api/v1/things", {{"a", 1}});
  ASSERT_TRUE(j.ok()) << j.status().message();
  EXPECT_EQ((*j)["ok"], true);
  const std::string& req = server.request();
  EXPECT_EQ(req.rfind("POST /api/v1/things HTTP/1.1\r\n", 0), 0u) << req;
  EXPECT_NE(req.find("Authorization: Bearer tok-1\r\n"), std::string::npos) << req;
  EXPECT_NE(req.find(R"({"a":1})"), std::string::npos) << req;
}

TEST(DaemonClient, ErrorBodyBecomesTheMessage) {
  OneShotServer server(Reply(403, R"({"error":{"code":"forbidden","message":"set api_token"}})"));
  DaemonClientOptions o;
  o.url = server.url();
  auto j = DaemonClient::Create(o)->GetJson("/api/v1/x");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(j.status().message().find("set api_token (HTTP 403)"), std::string::npos)
      << j.status().message();
}

TEST(DaemonClient, SilentServerTimesOut) {
  OneShotServer server("", /*answer=*/false);
  DaemonClientOptions o;
  o.url = server.url();
  o.timeout = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  auto r = DaemonClient::Create(o)->Get("/api/v1/health");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kTimeout);
  EXPECT_NE(r.status().message().find("did not answer within 0.3 s"), std::string::npos)
      << r.status().message();
}

TEST(TextTable, PadsColumnsAndAlignsNumbers) {
  TextTable t({"NAME", "SIZE"});
  t.AlignRight(1);
  t.AddRow({"sda", "4.00 TB"});
  t.AddRow({"nvme0n1", "500 GB"});
  EXPECT_EQ(t.Render(),
            "NAME        SIZE\n"
            "sda      4.00 TB\n"
            "nvme0n1   500 GB\n");
}

}  // namespace
}  // namespace dp::cli
