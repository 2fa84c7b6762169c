// The HTTP server over a real loopback socket: handlers run off the network
// thread, so a slow handler (a test notification waiting on its sinks) does
// not hold up other requests, and stopping the server with a handler still
// running neither hangs nor crashes.
#include "http/server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "http/response.h"
#include "http/router.h"
#include "support/http_client.h"

namespace dp::http {
namespace {

using namespace std::chrono_literals;
using dp::testing::HttpGet;

// A gate a handler waits at until the test opens it (or a timeout passes).
class Gate {
 public:
  // Returns true if opened, false on timeout.
  bool Wait(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    ++entered_;
    cv_.notify_all();
    return cv_.wait_for(lock, timeout, [&] { return open_; });
  }
  // True once `n` handlers have arrived at the gate.
  bool WaitEntered(std::chrono::milliseconds timeout, int n = 1) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return entered_ >= n; });
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

class ServerTest : public ::testing::Test {
 protected:
  void Start(std::shared_ptr<Router> router) {
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    auto s = Server::Bind(o, std::move(router));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(s).value();
    server_->Start();
  }
  std::unique_ptr<Server> server_;
};

TEST_F(ServerTest, SlowHandlerDoesNotHoldUpOtherRequests) {
  Gate gate;
  std::atomic<bool> slow_done{false};
  auto router = std::make_shared<Router>();
  router->Get("/slow", [&](const Request&, const PathParams&) {
    bool opened = gate.Wait(8s);
    return JsonResponse({{"opened", opened}});
  });
  router->Get("/fast", [](const Request&, const PathParams&) {
    return JsonResponse({{"fast", true}});
  });
  Start(router);
  const int port = server_->port();

  std::thread slow([&] {
    auto r = dp::testing::HttpRequest(port, "GET", "/slow", "", {}, 20s);
    EXPECT_EQ(r.status, 200) << r.error;
    EXPECT_EQ(r.Json().value("opened", false), true) << r.body;
    slow_done = true;
  });
  ASSERT_TRUE(gate.WaitEntered(10s)) << "the slow handler never ran";

  // While /slow waits at the gate, other requests are answered.
  for (int i = 0; i < 3; ++i) {
    auto fast = HttpGet(port, "/fast");
    EXPECT_EQ(fast.status, 200) << fast.error;
    EXPECT_EQ(fast.Json().value("fast", false), true) << fast.body;
  }
  EXPECT_FALSE(slow_done) << "the slow request finished before the gate opened";
  gate.Open();
  slow.join();
  EXPECT_TRUE(slow_done);
}

TEST_F(ServerTest, KeepAliveConnectionIsAnsweredInOrder) {
  auto router = std::make_shared<Router>();
  router->Get("/n/{n}", [](const Request&, const PathParams& p) {
    return JsonResponse({{"n", p.at("n")}});
  });
  Start(router);
  // Two pipelined requests on one connection: answers come back in order.
  dp::testing::TcpConnection c(server_->port());
  ASSERT_TRUE(c.connected());
  ASSERT_TRUE(c.Send("GET /n/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                     "GET /n/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  bool closed = false;
  std::string raw = c.ReadUntilClosed(10s, &closed);
  EXPECT_TRUE(closed);
  auto first = raw.find("{\"n\":\"1\"}");
  auto second = raw.find("{\"n\":\"2\"}");
  ASSERT_NE(first, std::string::npos) << raw;
  ASSERT_NE(second, std::string::npos) << raw;
  EXPECT_LT(first, second);
}

TEST_F(ServerTest, StopWithAHandlerStillRunningReturns) {
  Gate gate;
  auto router = std::make_shared<Router>();
  router->Get("/slow", [&](const Request&, const PathParams&) {
    gate.Wait(1s);
    return JsonResponse({{"late", true}});
  });
  Start(router);
  const int port = server_->port();
  std::thread client([&] { dp::testing::HttpRequest(port, "GET", "/slow", "", {}, 10s); });
  ASSERT_TRUE(gate.WaitEntered(10s));
  auto before = std::chrono::steady_clock::now();
  server_->Stop();  // waits for the running handler (≤ 1 s), not forever
  EXPECT_LT(std::chrono::steady_clock::now() - before, 30s);
  server_.reset();  // closes the connection: the client is not left waiting
  client.join();
}

// With every place busy with a request, a newcomer is refused; the busy
// connections are never pushed out to make room.
TEST_F(ServerTest, BusyConnectionsAreNeverPushedOut) {
  Gate gate;
  auto router = std::make_shared<Router>();
  router->Get("/slow", [&](const Request&, const PathParams&) {
    gate.Wait(20s);
    return JsonResponse({{"slow", true}});
  });
  router->Get("/ping", [](const Request&, const PathParams&) {
    return JsonResponse({{"pong", true}});
  });
  ServerOptions o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.limits.max_connections = 2;
  auto s = Server::Bind(o, router);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  server_ = std::move(s).value();
  server_->Start();
  const int port = server_->port();
  std::vector<std::thread> clients;
  std::vector<int> statuses(2, 0);
  for (int i = 0; i < 2; ++i)
    clients.emplace_back([&, i] {
      statuses[i] = dp::testing::HttpRequest(port, "GET", "/slow", "", {}, 20s).status;
    });
  ASSERT_TRUE(gate.WaitEntered(10s, 2));
  dp::testing::TcpConnection c(port);
  bool closed = false;
  std::string got = c.ReadUntilClosed(5s, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(got, "");
  gate.Open();
  for (auto& t : clients) t.join();
  EXPECT_EQ(statuses, (std::vector<int>{200, 200}));
  EXPECT_EQ(HttpGet(port, "/ping").status, 200);
}

}  // namespace
}  // namespace dp::http
