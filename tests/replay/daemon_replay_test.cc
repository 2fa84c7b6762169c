// `diskpulsed --replay DIR`: the real daemon binary discovers the recorded
// NAS at start-up (no tool is run) and serves it on /api/v1/drives.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "replay/nas_recording_util.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::TempDir;

// A child process whose stdout is a pipe; killed and reaped on destruction.
class Child {
 public:
  explicit Child(std::vector<std::string> argv) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> a;
      for (auto& s : argv) a.push_back(s.data());
      a.push_back(nullptr);
      execv(a[0], a.data());
      _exit(127);
    }
    close(fds[1]);
    out_ = fds[0];
  }
  ~Child() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) close(out_);
  }
  // The first line the child prints (or "" at EOF).
  std::string ReadLine() {
    std::string line;
    char c;
    while (read(out_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  int Stop() {
    int status = -1;
    kill(pid_, SIGTERM);
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
};

// GET path from 127.0.0.1:port; the body, or "" on any failure.
std::string HttpGet(int port, const std::string& path) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string reply;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (write(fd, req.data(), req.size()) == static_cast<ssize_t>(req.size())) {
      char buf[8192];
      ssize_t n;
      while ((n = read(fd, buf, sizeof buf)) > 0) reply.append(buf, static_cast<std::size_t>(n));
    }
  }
  close(fd);
  auto body = reply.find("\r\n\r\n");
  return body == std::string::npos ? "" : reply.substr(body + 4);
}

TEST(DaemonReplayTest, ServesTheRecordedDrives) {
  TempDir t;
  std::string nas = t.Path("nas");
  std::filesystem::create_directories(nas);
  testing::WriteNasRecording(nas);
  std::string config = t.Write("diskpulse.json",
                               nlohmann::json({{"listen", "127.0.0.1:0"},
                                               {"database", t.Path("db/diskpulse.db")},
                                               {"webui_root", ""}})
                                   .dump());
  std::filesystem::create_directories(t.Path("db"));
  Child daemon({DP_DAEMON_BIN, "-c", config, "--foreground", "--replay", nas});
  std::string line = daemon.ReadLine();  // "diskpulsed: listening on http://127.0.0.1:PORT/"
  auto colon = line.rfind(':');
  ASSERT_NE(colon, std::string::npos) << line;
  int port = std::atoi(line.c_str() + colon + 1);
  ASSERT_GT(port, 0) << line;

  // Discovery runs on its own thread right after start-up.
  nlohmann::json drives;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::string body = HttpGet(port, "/api/v1/drives");
    drives = nlohmann::json::parse(body, nullptr, false);
    if (drives.is_array() && drives.size() == 5) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(drives.is_array());
  ASSERT_EQ(drives.size(), 5u) << drives.dump();
  std::set<std::string> ids;
  for (const auto& d : drives) ids.insert(d["id"].get<std::string>());
  EXPECT_EQ(ids, (std::set<std::string>{testing::kSdaId, testing::kSdbId, testing::kSdcId,
                                        testing::kSddId, testing::kNvmeId}));
  auto one = nlohmann::json::parse(HttpGet(port, std::string("/api/v1/drives/") + testing::kSdaId),
                                   nullptr, false);
  ASSERT_TRUE(one.is_object());
  EXPECT_EQ(one["model"], "WDC WD140EDFZ-11A0VA0");
  EXPECT_EQ(one["present"], true);
  EXPECT_EQ(daemon.Stop(), 0);
}

TEST(DaemonReplayTest, MissingRecordingIsAStartupError) {
  TempDir t;
  std::string config = t.Write("diskpulse.json",
                               nlohmann::json({{"listen", "127.0.0.1:0"},
                                               {"database", t.Path("db/diskpulse.db")},
                                               {"webui_root", ""}})
                                   .dump());
  std::filesystem::create_directories(t.Path("db"));
  std::string cmd = std::string(DP_DAEMON_BIN) + " -c " + config + " --foreground --replay " +
                    t.Path("no-such-recording") + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[1024];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  EXPECT_EQ(WEXITSTATUS(status), 1) << out;
  EXPECT_NE(out.find("cannot replay"), std::string::npos) << out;
}

}  // namespace
}  // namespace dp
