// The sd_notify protocol: parsing NOTIFY_SOCKET / WATCHDOG_USEC (nonsense
// gives a clear message, never a failure), datagrams to a real unix socket
// (path and abstract), and the real diskpulsed under a real datagram socket
// as NOTIFY_SOCKET: READY=1 once serving, STATUS= lines, WATCHDOG=1 pings,
// RELOADING=1 ... READY=1 on SIGHUP, STOPPING=1 on SIGTERM.
#include "app/service_notifier.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

#include <sqlite3.h>

#include <gtest/gtest.h>

#include "app/watchdog_feeder.h"
#include "base/heartbeat.h"
#include "store/store.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;
using namespace std::chrono_literals;

// A bound SOCK_DGRAM unix socket that collects what is sent to it.
class NotifyListener {
 public:
  explicit NotifyListener(const NotifyAddress& a) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::size_t off = a.abstract ? 1 : 0;
    std::memcpy(sa.sun_path + off, a.path.data(), a.path.size());
    socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + off + a.path.size() +
                                           (a.abstract ? 0 : 1));
    bound_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&sa), len) == 0;
  }
  ~NotifyListener() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool bound() const { return bound_; }

  // Receives datagrams until one contains needle; true when it came.
  bool WaitFor(const std::string& needle, std::chrono::milliseconds timeout = 10s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (std::size_t i = seen_; i < messages_.size(); ++i)
      if (messages_[i].find(needle) != std::string::npos) {
        seen_ = i + 1;
        return true;
      }
    seen_ = messages_.size();
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      char buf[4096];
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) continue;
      messages_.emplace_back(buf, static_cast<std::size_t>(n));
      seen_ = messages_.size();
      if (messages_.back().find(needle) != std::string::npos) return true;
    }
    return false;
  }
  // Like WaitFor, but a message received before the last match counts too:
  // for messages whose order against the others is not promised.
  bool WaitForAnywhere(const std::string& needle, std::chrono::milliseconds timeout = 10s) {
    for (const auto& m : messages_)
      if (m.find(needle) != std::string::npos) return true;
    return WaitFor(needle, timeout);
  }
  int Count(const std::string& needle) const {
    int n = 0;
    for (const auto& m : messages_) n += m.find(needle) != std::string::npos;
    return n;
  }
  std::string All() const {
    std::string out;
    for (const auto& m : messages_) out += "[" + m + "]\n";
    return out;
  }

 private:
  int fd_ = -1;
  bool bound_ = false;
  std::vector<std::string> messages_;
  std::size_t seen_ = 0;
};

// Sets environment variables for the daemon a test starts; unsets them after.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {
    for (const auto& [k, v] : vars_) ::setenv(k.c_str(), v.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& [k, v] : vars_) ::unsetenv(k.c_str());
  }

 private:
  std::map<std::string, std::string> vars_;
};

TEST(ParseNotifySocket, PathsAndAbstractNames) {
  auto path = ParseNotifySocket("/run/systemd/notify");
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(path->path, "/run/systemd/notify");
  EXPECT_FALSE(path->abstract);
  auto abstract = ParseNotifySocket("@/org/freedesktop/systemd1/notify/123");
  ASSERT_TRUE(abstract.ok());
  EXPECT_TRUE(abstract->abstract);
  EXPECT_EQ(abstract->path, "/org/freedesktop/systemd1/notify/123");
}

TEST(ParseNotifySocket, NonsenseIsAClearError) {
  EXPECT_NE(ParseNotifySocket("run/notify").status().message().find(
                "'run/notify' is neither an absolute path nor an abstract '@name'"),
            std::string::npos);
  EXPECT_FALSE(ParseNotifySocket("").ok());
  EXPECT_FALSE(ParseNotifySocket("@").ok());
  EXPECT_NE(ParseNotifySocket("/" + std::string(200, 'x')).status().message().find("at most"),
            std::string::npos);
}

TEST(ParseWatchdog, MicrosecondsForThisProcessOnly) {
  auto wd = ParseWatchdog("30000000", "", 1234);
  ASSERT_TRUE(wd.ok());
  EXPECT_EQ(*wd, std::chrono::microseconds(30000000));
  EXPECT_EQ(*ParseWatchdog("5000", "1234", 1234), std::chrono::microseconds(5000));
  EXPECT_EQ(*ParseWatchdog("5000", "999", 1234), std::nullopt);  // another process's
  for (const char* bad : {"soon", "0", "-5", "12s", ""})
    EXPECT_NE(ParseWatchdog(bad, "", 1).status().message().find("not a positive number"),
              std::string::npos)
        << bad;
  EXPECT_FALSE(ParseWatchdog("5000", "pid", 1).ok());
}

TEST(ServiceNotifier, NonsenseEnvironmentIsLoggedAndTurnsThePartOff) {
  std::map<std::string, std::string> env = {{"NOTIFY_SOCKET", "notify.sock"},
                                            {"WATCHDOG_USEC", "30000000"}};
  std::vector<std::string> warnings, unset;
  auto getenv = [&](const char* k) { return env.count(k) ? env[k].c_str() : nullptr; };
  auto warn = [&](const std::string& m) { warnings.push_back(m); };
  auto drop = [&](const char* k) { unset.emplace_back(k); };
  ServiceNotifier off = ServiceNotifier::FromEnvironment(getenv, warn, drop);
  EXPECT_FALSE(off.enabled());
  EXPECT_FALSE(off.watchdog_interval());
  EXPECT_FALSE(off.Send("READY=1"));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'notify.sock' is neither an absolute path"), std::string::npos);
  EXPECT_EQ(unset, (std::vector<std::string>{"NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"}));

  env = {{"NOTIFY_SOCKET", "/run/systemd/notify"}, {"WATCHDOG_USEC", "every minute"}};
  warnings.clear();
  ServiceNotifier no_watchdog = ServiceNotifier::FromEnvironment(getenv, warn, drop);
  EXPECT_EQ(no_watchdog.enabled(), NotifySupported());
  EXPECT_FALSE(no_watchdog.watchdog_interval());
  ASSERT_EQ(warnings.size(), 1u);
  if (NotifySupported()) {
    EXPECT_NE(warnings[0].find("WATCHDOG_USEC 'every minute' is not a positive number"),
              std::string::npos);
  }

  env = {};
  warnings.clear();
  EXPECT_FALSE(ServiceNotifier::FromEnvironment(getenv, warn, drop).enabled());
  EXPECT_TRUE(warnings.empty());  // not under a service manager: nothing to say
}

class ServiceNotifierSocketTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // By design, not a missing capability: the sd_notify protocol is
    // Linux's (systemd); elsewhere the notifier is off and has nothing to send.
    if (!NotifySupported()) GTEST_SKIP() << "no sd_notify protocol on this system";
  }
  ServiceNotifier Make(const std::string& socket, const std::string& usec = "") {
    std::map<std::string, std::string> env = {{"NOTIFY_SOCKET", socket}};
    if (!usec.empty()) env["WATCHDOG_USEC"] = usec;
    return ServiceNotifier::FromEnvironment(
        [env](const char* k) { return env.count(k) ? env.at(k).c_str() : nullptr; },
        [this](const std::string& m) { warnings_.push_back(m); }, [](const char*) {});
  }
  TempDir tmp_;
  std::vector<std::string> warnings_;
};

TEST_F(ServiceNotifierSocketTest, DatagramsReachAPathSocket) {
  NotifyAddress a{tmp_.Path("notify"), false};
  NotifyListener listener(a);
  ASSERT_TRUE(listener.bound());
  ServiceNotifier n = Make(a.path, "3000000");
  ASSERT_TRUE(n.enabled());
  EXPECT_EQ(n.watchdog_interval(), std::chrono::microseconds(1500000));
  n.Ready("serving http://127.0.0.1:8470/");
  EXPECT_TRUE(listener.WaitFor("READY=1\nMAINPID=" + std::to_string(::getpid()) +
                               "\nSTATUS=serving http://127.0.0.1:8470/"))
      << listener.All();
  n.SetStatus("two\nlines");
  EXPECT_TRUE(listener.WaitFor("STATUS=two lines")) << listener.All();
  n.Watchdog();
  EXPECT_TRUE(listener.WaitFor("WATCHDOG=1"));
  n.Reloading();
  EXPECT_TRUE(listener.WaitFor("RELOADING=1\nMONOTONIC_USEC="));
  n.Stopping();
  EXPECT_TRUE(listener.WaitFor("STOPPING=1"));
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(ServiceNotifierSocketTest, DatagramsReachAnAbstractSocket) {
  NotifyAddress a{"diskpulse-notify-test-" + std::to_string(::getpid()), true};
  NotifyListener listener(a);
  ASSERT_TRUE(listener.bound());
  ServiceNotifier n = Make("@" + a.path);
  n.Ready("");
  EXPECT_TRUE(listener.WaitFor("READY=1")) << listener.All();
}

TEST_F(ServiceNotifierSocketTest, UnreachableSocketIsLoggedOnce) {
  ServiceNotifier n = Make(tmp_.Path("nobody-listens"));
  EXPECT_FALSE(n.Send("READY=1"));
  EXPECT_FALSE(n.Send("WATCHDOG=1"));
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("cannot notify " + tmp_.Path("nobody-listens")), std::string::npos)
      << warnings_[0];
}

// The watchdog is fed only while every part makes progress: a database call
// that hangs (a real store waiting on SQLite's busy timeout while another
// connection holds the file's write lock) stops the pings, which resume
// once the call returns.
TEST_F(ServiceNotifierSocketTest, BlockedDatabaseCallStopsTheWatchdog) {
  NotifyAddress a{tmp_.Path("notify"), false};
  NotifyListener listener(a);
  ASSERT_TRUE(listener.bound());
  ServiceNotifier n = Make(a.path, "2000000");
  auto store = Store::Open(tmp_.Path("dp.db"));
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  SystemClock clock;
  HeartbeatBoard board(clock);
  (*store)->WatchWith(&board.Add("database"));
  Heartbeat& loop = board.Add("scheduler");
  loop.Beat();
  WatchdogFeeder feeder(n, [&] { return board.Stalled(500ms); });
  EXPECT_TRUE(feeder.Feed());
  EXPECT_TRUE(listener.WaitFor("WATCHDOG=1")) << listener.All();

  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(tmp_.Path("dp.db").c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  Drive d;
  d.id = "blocked";
  d.name = "sdz";
  Status written = Status::Ok();
  std::thread writer([&] { written = (*store)->UpsertDrive(d, 0); });
  const int before = listener.Count("WATCHDOG=1");
  int fed = 0;
  std::vector<std::string> stalled;
  // Two seconds of feeding every 100 ms while the other parts move on; the
  // call has been blocked past the limit after the first half second.
  for (int i = 0; i < 20; ++i) {
    loop.Beat();
    if (i >= 8) fed += feeder.Feed() ? 1 : 0;
    std::this_thread::sleep_for(100ms);
  }
  stalled = board.Stalled(500ms);
  const bool heard = listener.WaitFor("WATCHDOG=1", 300ms);
  // The other connection lets go well inside SQLite's 10 s busy timeout.
  EXPECT_EQ(sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  writer.join();
  EXPECT_TRUE(written.ok()) << written.ToString();
  EXPECT_EQ(fed, 0);
  ASSERT_EQ(stalled.size(), 1u) << ::testing::PrintToString(stalled);
  EXPECT_EQ(stalled[0].rfind("database (no progress for ", 0), 0u) << stalled[0];
  EXPECT_FALSE(heard) << listener.All();
  EXPECT_EQ(listener.Count("WATCHDOG=1"), before);
  loop.Beat();
  EXPECT_TRUE(board.Stalled(500ms).empty());
  EXPECT_TRUE(feeder.Feed());
  EXPECT_TRUE(listener.WaitFor("WATCHDOG=1")) << listener.All();
  // A loop that stops turning holds the pings back too.
  std::this_thread::sleep_for(700ms);
  EXPECT_FALSE(feeder.Feed());
}

// The real daemon under a real notify socket, with a 400 ms watchdog.
TEST_F(ServiceNotifierSocketTest, DaemonSpeaksTheProtocol) {
  NotifyAddress a{tmp_.Path("notify"), false};
  NotifyListener listener(a);
  ASSERT_TRUE(listener.bound());
  // An empty sysfs: discovery passes, finding no drive.
  std::filesystem::create_directories(tmp_.path() / "host/sys/block");
  std::unique_ptr<DaemonProcess> daemon;
  {
    ScopedEnv env({{"NOTIFY_SOCKET", a.path}, {"WATCHDOG_USEC", "400000"}});
    auto d = DaemonProcess::Start(tmp_);
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon = std::move(d).value();
  }
  const std::string url = daemon->url();
  ASSERT_TRUE(listener.WaitFor("STATUS=serving " + url + "; discovering drives")) << listener.All();
  ASSERT_TRUE(listener.WaitFor("READY=1\nMAINPID=" + std::to_string(daemon->pid())))
      << listener.All();
  // Ready means serving.
  EXPECT_EQ(HttpGet(daemon->port(), "/api/v1/health").status, 200);
  // Discovery's pass ends with a status line naming the next run (none here).
  // Its thread starts before READY=1 is sent, so a quick pass (an empty
  // sysfs) may announce itself first.
  EXPECT_TRUE(listener.WaitForAnywhere("STATUS=serving " + url +
                                       "; 0 drives, 0 pools; SMART: 0 read, 0 "
                                       "asleep, 0 failed; no run scheduled"))
      << listener.All() << daemon->Output();
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(listener.WaitFor("WATCHDOG=1", 5s)) << listener.All();

  daemon->Signal(SIGHUP);
  EXPECT_TRUE(listener.WaitFor("RELOADING=1")) << listener.All();
  EXPECT_TRUE(listener.WaitFor("READY=1")) << listener.All();
  EXPECT_TRUE(daemon->WaitForOutput("configuration reloaded"));
  EXPECT_TRUE(listener.WaitFor("WATCHDOG=1", 5s)) << "pings go on after a reload";

  daemon->Signal(SIGTERM);
  EXPECT_TRUE(listener.WaitFor("STOPPING=1")) << listener.All();
  EXPECT_EQ(daemon->WaitExit(10s), 0) << daemon->Output();
  EXPECT_NE(daemon->Output().find("watchdog ping every 200 ms"), std::string::npos)
      << daemon->Output();
  // Every part beat while it served: the pings were never held back.
  EXPECT_EQ(daemon->Output().find("watchdog: not pinging"), std::string::npos) << daemon->Output();
}

TEST_F(ServiceNotifierSocketTest, DaemonWithNonsenseEnvironmentServesAndSaysWhy) {
  std::unique_ptr<DaemonProcess> daemon;
  {
    ScopedEnv env({{"NOTIFY_SOCKET", "relative/notify.sock"}, {"WATCHDOG_USEC", "soon"}});
    auto d = DaemonProcess::Start(tmp_);
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon = std::move(d).value();
  }
  EXPECT_EQ(HttpGet(daemon->port(), "/api/v1/health").status, 200);
  EXPECT_TRUE(daemon->WaitForOutput(
      "NOTIFY_SOCKET 'relative/notify.sock' is neither an absolute path nor an abstract "
      "'@name'; not notifying it"))
      << daemon->Output();
  daemon->Signal(SIGTERM);
  EXPECT_EQ(daemon->WaitExit(10s), 0) << daemon->Output();

  TempDir other;
  {
    ScopedEnv env({{"NOTIFY_SOCKET", other.Path("absent/notify")}, {"WATCHDOG_USEC", "-1"}});
    auto d = DaemonProcess::Start(other);
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon = std::move(d).value();
  }
  EXPECT_EQ(HttpGet(daemon->port(), "/api/v1/health").status, 200);
  EXPECT_TRUE(daemon->WaitForOutput("WATCHDOG_USEC '-1' is not a positive number of microseconds; "
                                    "no watchdog pings"))
      << daemon->Output();
  EXPECT_TRUE(daemon->WaitForOutput("cannot notify " + other.Path("absent/notify")))
      << daemon->Output();
  daemon->Signal(SIGTERM);
  EXPECT_EQ(daemon->WaitExit(10s), 0) << daemon->Output();
}

}  // namespace
}  // namespace dp
