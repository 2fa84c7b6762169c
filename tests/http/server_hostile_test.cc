// The HTTP server against hostile clients over a real loopback socket:
// connections that never finish a request (slowloris) cannot lock out a
// client that sends its request at once (a busy connection is never pushed
// out: server_test.cc), and malformed requests are refused with 4xx or a closed connection
// while the server goes on serving. Small and bounded: the full figures come
// from benchmarks/hostile_http.
#include <sys/socket.h>

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "http/response.h"
#include "http/router.h"
#include "http/server.h"
#include "support/http_client.h"

namespace dp::http {
namespace {

using namespace std::chrono_literals;
using dp::testing::HttpGet;
using dp::testing::SendRaw;
using dp::testing::TcpConnection;

class ServerHostileTest : public ::testing::Test {
 protected:
  void Start(int max_connections, std::shared_ptr<Router> router = nullptr) {
    if (!router) router = std::make_shared<Router>();
    router->Get("/ping", [](const Request&, const PathParams&) {
      return JsonResponse({{"pong", true}});
    });
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.limits.max_connections = max_connections;
    // Long enough that no slow client is cut off by the deadline during a
    // test: only making room can let the well-behaved client in.
    o.limits.read_timeout = 60s;
    o.limits.max_body_bytes = 4096;
    auto s = Server::Bind(o, std::move(router));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(s).value();
    server_->Start();
    port_ = server_->port();
  }

  // Opens n connections that send a partial request head and stop.
  void OpenSlowClients(int n) {
    for (int i = 0; i < n; ++i) {
      auto c = std::make_unique<TcpConnection>(port_);
      ASSERT_TRUE(c->connected());
      ASSERT_TRUE(c->Send("GET /ping HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n"));
      slow_.push_back(std::move(c));
    }
  }

  std::unique_ptr<Server> server_;
  int port_ = 0;
  std::vector<std::unique_ptr<TcpConnection>> slow_;
};

TEST_F(ServerHostileTest, SlowClientsCannotLockOutAWellBehavedOne) {
  Start(8);
  OpenSlowClients(24);  // three times the cap
  std::this_thread::sleep_for(200ms);
  EXPECT_LE(server_->active_connections(), 8);
  for (int i = 0; i < 20; ++i) {
    auto r = HttpGet(port_, "/ping");
    ASSERT_EQ(r.status, 200) << "request " << i << ": " << r.error;
    EXPECT_EQ(r.Json().value("pong", false), true);
    // The slow clients come back as a real slowloris would.
    OpenSlowClients(2);
  }
  EXPECT_LE(server_->active_connections(), 8);
}

TEST_F(ServerHostileTest, AnEvictedSlowClientSeesItsConnectionClosed) {
  Start(2);
  OpenSlowClients(1);
  std::this_thread::sleep_for(100ms);
  OpenSlowClients(1);
  std::this_thread::sleep_for(100ms);
  auto r = HttpGet(port_, "/ping");  // takes the place of the first, oldest one
  ASSERT_EQ(r.status, 200) << r.error;
  bool closed = false;
  std::string got = slow_[0]->ReadUntilClosed(5s, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(got, "");
}

// Sends bytes and reports the status answered, 0 for a connection closed (or
// left) without an answer.
int StatusFor(int port, const std::string& bytes) {
  auto r = SendRaw(port, bytes, 5s);
  return r.received ? r.status : 0;
}

TEST_F(ServerHostileTest, MalformedRequestsAreRefusedAndTheServerServesOn) {
  Start(16);
  std::string random;
  unsigned x = 12345;
  for (int i = 0; i < 2048; ++i) random.push_back(static_cast<char>((x = x * 1103515245 + 12345) >> 16));
  std::string tls_hello = std::string("\x16\x03\x01\x00\xc8\x01\x00\x00\xc4\x03\x03", 11) +
                          std::string(200, '\x42');
  std::string five_thousand_headers = "GET /ping HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 5000; ++i) five_thousand_headers += "X-H" + std::to_string(i) + ": v\r\n";
  five_thousand_headers += "\r\n";
  static const char kNul[] = "GET /pi\0ng HTTP/1.1\r\nHost: x\0y\r\n\r\n";

  struct Case {
    std::string name, bytes;
    int want;  // 0: closed without an answer is right too; else the status
  };
  std::vector<Case> cases = {
      {"random bytes", random, 0},
      {"TLS hello on the HTTP port", tls_hello, 0},
      {"bad method", "G\x01T /ping HTTP/1.1\r\nHost: x\r\n\r\n", 400},
      {"bad version", "GET /ping HTTP/9.9\r\nHost: x\r\n\r\n", 400},
      {"negative Content-Length",
       "POST /ping HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n{}", 400},
      {"huge Content-Length",
       "POST /ping HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400},
      {"Content-Length over the body limit",
       "POST /ping HTTP/1.1\r\nHost: x\r\nContent-Length: 1099511627776\r\n\r\n", 413},
      {"chunked garbage",
       "POST /ping HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
       400},
      {"100 KB request line", "GET /" + std::string(100 * 1024, 'a') + " HTTP/1.1\r\n\r\n", 431},
      {"5000 headers", five_thousand_headers, 431},
      {"NUL bytes", std::string(kNul, sizeof kNul - 1), 400},
  };
  for (const auto& c : cases) {
    int status = StatusFor(port_, c.bytes);
    if (c.want == 0) {
      EXPECT_TRUE(status == 0 || status == 400) << c.name << ": " << status;
    } else {
      EXPECT_EQ(status, c.want) << c.name;
    }
  }
  // A truncated JSON body: the client goes away before the body is whole.
  {
    TcpConnection t(port_);
    ASSERT_TRUE(t.Send("POST /ping HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{\"drive\":"));
  }
  // Everything again, in parallel, while a well-behaved client is served.
  std::vector<std::thread> hostile;
  for (int k = 0; k < 4; ++k)
    hostile.emplace_back([&] {
      for (const auto& c : cases) StatusFor(port_, c.bytes);
    });
  for (int i = 0; i < 10; ++i) EXPECT_EQ(HttpGet(port_, "/ping").status, 200) << i;
  for (auto& t : hostile) t.join();
  EXPECT_EQ(HttpGet(port_, "/ping").status, 200);
}

}  // namespace
}  // namespace dp::http
