// The real diskpulsed over real HTTP on a free loopback port: the API, the
// web page, error statuses, limits and path traversal.
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

class DaemonHttpTest : public ::testing::Test {
 protected:
  void Start(const nlohmann::json& patch = nlohmann::json::object()) {
    auto d = DaemonProcess::Start(tmp_, patch);
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon_ = std::move(d).value();
    port_ = daemon_->port();
  }
  void SetUp() override { Start({{"http", {{"max_body_bytes", 4096}}}}); }

  TempDir tmp_;
  std::unique_ptr<DaemonProcess> daemon_;
  int port_ = 0;
};

TEST_F(DaemonHttpTest, PrintsItsUrl) {
  EXPECT_NE(daemon_->Output().find("diskpulsed: listening on http://127.0.0.1:" +
                                   std::to_string(port_) + "/"),
            std::string::npos);
}

TEST_F(DaemonHttpTest, Health) {
  auto r = HttpGet(port_, "/api/v1/health");
  ASSERT_TRUE(r.received) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Header("Content-Type"), "application/json");
  auto j = r.Json();
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["version"], DP_VERSION);
  EXPECT_EQ(j["db"], "ok");
}

TEST_F(DaemonHttpTest, VersionAndDrives) {
  auto v = HttpGet(port_, "/api/v1/version");
  EXPECT_EQ(v.status, 200);
  EXPECT_EQ(v.Json()["version"], DP_VERSION);
  auto d = HttpGet(port_, "/api/v1/drives");
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.Json(), nlohmann::json::array());
}

TEST_F(DaemonHttpTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  std::string one = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
  std::string last = "GET /api/v1/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  TcpConnection c(port_);
  ASSERT_TRUE(c.Send(one + one + last));
  bool closed = false;
  std::string all = c.ReadUntilClosed(5s, &closed);
  EXPECT_TRUE(closed);
  std::size_t count = 0;
  for (auto p = all.find("HTTP/1.1 200"); p != std::string::npos; p = all.find("HTTP/1.1 200", p + 1))
    ++count;
  EXPECT_EQ(count, 3u) << all;
}

TEST_F(DaemonHttpTest, StaticPageWithMimeTypes) {
  auto index = HttpGet(port_, "/");
  ASSERT_EQ(index.status, 200) << index.raw;
  EXPECT_EQ(index.Header("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("<title>diskpulse</title>"), std::string::npos);
  EXPECT_EQ(HttpGet(port_, "/index.html").body, index.body);

  auto js = HttpGet(port_, "/js/main.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.Header("Content-Type"), "text/javascript; charset=utf-8");
  auto css = HttpGet(port_, "/css/diskpulse.css");
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.Header("Content-Type"), "text/css; charset=utf-8");
  auto svg = HttpGet(port_, "/favicon.svg");
  EXPECT_EQ(svg.status, 200);
  EXPECT_EQ(svg.Header("Content-Type"), "image/svg+xml");
  EXPECT_EQ(index.Header("X-Content-Type-Options"), "nosniff");
}

TEST_F(DaemonHttpTest, HeadHasLengthButNoBody) {
  auto full = HttpGet(port_, "/");
  auto head = HttpRequest(port_, "HEAD", "/");
  ASSERT_TRUE(head.received) << head.error;
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.Header("Content-Length"), std::to_string(full.body.size()));
  // Nothing after the headers (the connection was closed by the server).
  EXPECT_EQ(head.raw.substr(head.raw.find("\r\n\r\n") + 4), "");
}

TEST_F(DaemonHttpTest, NotFoundIsJson) {
  auto api = HttpGet(port_, "/api/v1/nope");
  EXPECT_EQ(api.status, 404);
  EXPECT_EQ(api.Json()["error"]["code"], "not_found");
  auto file = HttpGet(port_, "/nope.html");
  EXPECT_EQ(file.status, 404);
  EXPECT_EQ(file.Json()["error"]["code"], "not_found");
}

TEST_F(DaemonHttpTest, MethodNotAllowedHasAllow) {
  auto r = HttpRequest(port_, "DELETE", "/api/v1/health");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.Header("Allow"), "GET, HEAD");
  EXPECT_EQ(r.Json()["error"]["code"], "method_not_allowed");
  auto post = HttpRequest(port_, "POST", "/index.html", "x");
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.Header("Allow"), "GET, HEAD");
}

TEST_F(DaemonHttpTest, BodyOverTheLimitIs413) {
  // Announced too large: refused before the body is read.
  auto big = SendRaw(port_,
                     "POST /api/v1/drives HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n");
  ASSERT_TRUE(big.received) << big.error;
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(big.Json()["error"]["code"], "payload_too_large");
  // Actually sent, chunked, too large.
  std::string chunk(5000, 'x');
  auto chunked = SendRaw(port_,
                         "POST /api/v1/drives HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                         "\r\n1388\r\n" + chunk + "\r\n0\r\n\r\n");
  EXPECT_EQ(chunked.status, 413) << chunked.raw;
  // Under the limit: the request goes through to the router (405 here).
  EXPECT_EQ(HttpRequest(port_, "POST", "/api/v1/drives", std::string(4000, 'x')).status, 405);
}

TEST_F(DaemonHttpTest, HeadersOverTheLimitAre431) {
  std::string huge(20 * 1024, 'a');
  auto r = HttpGet(port_, "/api/v1/health", {{"X-Filler", huge}});
  ASSERT_TRUE(r.received) << r.error;
  EXPECT_EQ(r.status, 431);
  EXPECT_EQ(r.Json()["error"]["code"], "headers_too_large");
}

TEST_F(DaemonHttpTest, MalformedRequestIs400) {
  auto r = SendRaw(port_, "THIS IS NOT HTTP\r\n\r\n");
  ASSERT_TRUE(r.received) << r.error;
  EXPECT_EQ(r.status, 400);
  auto absolute = SendRaw(port_, "GET http://example.com/etc/passwd HTTP/1.1\r\nHost: x\r\n"
                                 "Connection: close\r\n\r\n");
  EXPECT_EQ(absolute.status, 400);
}

TEST_F(DaemonHttpTest, PathTraversalNeverLeavesTheWebRoot) {
  for (const char* target :
       {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd",
        "/%2fetc%2fpasswd", "//etc/passwd", "/css/../../README.md", "/..%5c..%5cetc%5cpasswd",
        "/index.html%00.css", "/%2e%2e%2f%2e%2e%2fREADME.md", "/./../README.md"}) {
    auto r = SendRaw(port_, std::string("GET ") + target +
                                " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    ASSERT_TRUE(r.received) << target << ": " << r.error;
    EXPECT_TRUE(r.status == 400 || r.status == 404) << target << " -> " << r.status;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
    EXPECT_EQ(r.Header("Content-Type"), "application/json") << target;
  }
}

TEST_F(DaemonHttpTest, SymlinkOutOfTheWebRootIs404) {
  TempDir web;
  web.Write("index.html", "mine");
  std::filesystem::create_symlink("/etc/passwd", web.path() / "passwd");
  daemon_.reset();
  Start({{"webui_root", web.path().string()}});
  EXPECT_EQ(HttpGet(port_, "/").body, "mine");
  auto r = HttpGet(port_, "/passwd");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body.find("root:"), std::string::npos);
}

TEST_F(DaemonHttpTest, Metrics) {
  auto r = HttpGet(port_, "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Header("Content-Type").rfind("text/plain; version=0.0.4", 0), 0u);
  EXPECT_NE(r.body.find("\ndiskpulse_up 1\n"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("diskpulse_build_info{version=\"" DP_VERSION "\"} 1"), std::string::npos);
}

class DaemonLimitsTest : public DaemonHttpTest {
 protected:
  void SetUp() override {
    Start({{"http", {{"read_timeout_seconds", 1}, {"max_connections", 2}}}});
  }
};

TEST_F(DaemonLimitsTest, SlowRequestIsCutOffAtTheDeadline) {
  TcpConnection slow(port_);
  ASSERT_TRUE(slow.connected());
  ASSERT_TRUE(slow.Send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n"));  // never finished
  auto start = std::chrono::steady_clock::now();
  bool closed = false;
  std::string got = slow.ReadUntilClosed(5s, &closed);
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(closed) << "the server kept a half-sent request open";
  EXPECT_LT(took, 4s);
  EXPECT_EQ(got.find("200 OK"), std::string::npos);
}

TEST_F(DaemonLimitsTest, ANewConnectionTakesThePlaceOfTheIdlestWhenFull) {
  TcpConnection a(port_), b(port_);
  ASSERT_TRUE(a.connected() && b.connected());
  // Both are answered and stay open (keep-alive), waiting on their clients.
  ASSERT_TRUE(a.Send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n"));
  std::this_thread::sleep_for(100ms);
  ASSERT_TRUE(b.Send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n"));
  std::this_thread::sleep_for(200ms);
  // A third, over the cap of 2, is served in the place of the idlest (a).
  auto r = HttpGet(port_, "/api/v1/health");
  EXPECT_EQ(r.status, 200) << r.error;
  bool closed = false;
  std::string got = a.ReadUntilClosed(3s, &closed);
  EXPECT_TRUE(closed);
  EXPECT_NE(got.find("200 OK"), std::string::npos) << got;  // its own answer came first
  EXPECT_TRUE(daemon_->WaitForOutput("closed to make room", 2s)) << daemon_->Output();
  EXPECT_TRUE(daemon_->WaitForOutput("all 2 connections in use", 2s)) << daemon_->Output();
}

}  // namespace
}  // namespace dp
