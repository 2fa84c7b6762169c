// SIGTERM/SIGINT stop diskpulsed cleanly; SIGHUP reloads its configuration
// and keeps the old one when the new one is invalid.
#include <signal.h>

#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

void ExpectCleanStop(TempDir& tmp, int sig) {
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  auto& daemon = *d;
  std::string pidfile = tmp.Path("var/diskpulsed.pid");
  // "listening" is printed once the port is bound; the pidfile is written
  // when the daemon starts serving, so an answer proves it is there.
  ASSERT_EQ(HttpGet(daemon->port(), "/api/v1/health").status, 200);
  EXPECT_EQ(ReadFile(pidfile), std::to_string(daemon->pid()) + "\n");

  daemon->Signal(sig);
  auto code = daemon->WaitExit(10s);
  ASSERT_TRUE(code.has_value()) << "still running after the signal";
  EXPECT_EQ(*code, 0) << daemon->Output();
  EXPECT_FALSE(std::filesystem::exists(pidfile));
  EXPECT_NE(daemon->Output().find("stopped"), std::string::npos);
  EXPECT_FALSE(HttpGet(daemon->port(), "/api/v1/health").received);
  // The database was closed properly: a new daemon opens it at once.
  auto again = DaemonProcess::Start(tmp);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(HttpGet((*again)->port(), "/api/v1/health").Json()["db"], "ok");
}

TEST(DaemonSignals, SigtermStopsCleanly) {
  TempDir tmp;
  ExpectCleanStop(tmp, SIGTERM);
}

TEST(DaemonSignals, SigintStopsCleanly) {
  TempDir tmp;
  ExpectCleanStop(tmp, SIGINT);
}

TEST(DaemonSignals, SigtermWithAnOpenConnectionStillStops) {
  TempDir tmp;
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  TcpConnection idle((*d)->port());
  ASSERT_TRUE(idle.Send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n"));  // half a request
  (*d)->Signal(SIGTERM);
  auto code = (*d)->WaitExit(10s);
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, 0);
}

TEST(DaemonSignals, SighupReloadsAndKeepsTheOldConfigWhenTheNewIsBad) {
  TempDir tmp;
  tmp.Write("web-a/index.html", "page A");
  tmp.Write("web-b/index.html", "page B");
  auto d = DaemonProcess::Start(tmp, {{"webui_root", tmp.Path("web-a")}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  auto& daemon = *d;
  int port = daemon->port();
  ASSERT_EQ(HttpGet(port, "/").body, "page A");

  // A valid change applies at once; a restart-only change is only reported.
  nlohmann::json next = DaemonProcess::DefaultConfig(tmp.path());
  next["webui_root"] = tmp.Path("web-b");
  next["listen"] = "127.0.0.1:1";
  // Discovery and the job executor keep the configuration they started with:
  // their keys are named too, not dropped in silence.
  next["inventory"]["include"] = {"loop7"};
  next["tools"]["timeout_seconds"] = 5;
  tmp.Write("diskpulse.json", next.dump(2));
  daemon->Signal(SIGHUP);
  ASSERT_TRUE(daemon->WaitForOutput("configuration reloaded")) << daemon->Output();
  EXPECT_EQ(HttpGet(port, "/").body, "page B");
  for (const char* key : {"listen", "tools", "inventory"})
    EXPECT_NE(daemon->Output().find(std::string("'") + key +
                                    "' changed; restart diskpulsed to apply it"),
              std::string::npos)
        << key << "\n" << daemon->Output();
  EXPECT_EQ(daemon->Output().find("'webui_root' changed"), std::string::npos);

  // An invalid file: logged with its reason, nothing changes.
  tmp.Write("diskpulse.json", "{ \"webui_root\": \"" + tmp.Path("web-a") + "\", \"bogus\": 1 }");
  daemon->Signal(SIGHUP);
  ASSERT_TRUE(daemon->WaitForOutput("keeping the current configuration")) << daemon->Output();
  EXPECT_NE(daemon->Output().find("bogus: unknown key"), std::string::npos);
  EXPECT_EQ(HttpGet(port, "/").body, "page B");
  EXPECT_EQ(HttpGet(port, "/api/v1/health").status, 200);
  EXPECT_TRUE(daemon->Running());

  daemon->Signal(SIGTERM);
  EXPECT_EQ(daemon->WaitExit(10s), 0);
}

TEST(DaemonSignals, SighupAppliesNewHttpLimits) {
  TempDir tmp;
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  int port = (*d)->port();
  std::string body(3000, 'x');
  EXPECT_EQ(HttpRequest(port, "POST", "/api/v1/drives", body).status, 405);
  nlohmann::json next = DaemonProcess::DefaultConfig(tmp.path());
  next["http"] = {{"max_body_bytes", 1024}};
  tmp.Write("diskpulse.json", next.dump(2));
  (*d)->Signal(SIGHUP);
  ASSERT_TRUE((*d)->WaitForOutput("configuration reloaded")) << (*d)->Output();
  EXPECT_EQ(HttpRequest(port, "POST", "/api/v1/drives", body).status, 413);
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

using namespace dp::testing;

// Without --foreground (rc.d): the command returns once the daemon is
// listening, and the detached daemon's pid is in the pidfile.
TEST(DaemonDetached, DetachesWritesPidfileAndStopsOnSigterm) {
  TempDir tmp;
  nlohmann::json config = DaemonProcess::DefaultConfig(tmp.path());
  std::string config_path = tmp.Write("diskpulse.json", config.dump(2));
  std::string pidfile = tmp.Path("run.pid");
  auto r = RunProgram({DP_DAEMON_BIN, "-c", config_path, "--pidfile", pidfile}, 20s);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto at = r.output.find("listening on http://127.0.0.1:");
  ASSERT_NE(at, std::string::npos) << r.output;
  int port = std::stoi(r.output.substr(at + 30));

  // The pid is written by the detached child shortly after the parent exits.
  pid_t pid = 0;
  for (int i = 0; i < 500 && pid == 0; ++i) {
    std::string text = ReadFile(pidfile);
    if (!text.empty() && text.back() == '\n') pid = std::stoi(text);
    else std::this_thread::sleep_for(10ms);
  }
  ASSERT_GT(pid, 0);
  EXPECT_EQ(HttpGet(port, "/api/v1/health").status, 200);

  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  bool gone = false;
  for (int i = 0; i < 1000 && !gone; ++i) {
    // (Not kill(pid, 0): an unreaped zombie would still answer it.)
    gone = !std::filesystem::exists(pidfile) && !HttpGet(port, "/api/v1/health").received;
    if (!gone) std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(gone) << "the detached daemon did not stop";
  if (!gone) ::kill(pid, SIGKILL);
}

}  // namespace
}  // namespace dp
