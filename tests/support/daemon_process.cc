#include "support/daemon_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <regex>
#include <thread>

extern char** environ;

namespace dp::testing {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Spawns argv with stdin /dev/null and stdout+stderr appended to log_path.
pid_t SpawnLogged(const std::vector<std::string>& argv, const std::string& log_path,
                  const std::vector<std::string>& extra_env) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_store;
  for (char** e = environ; *e; ++e) env_store.emplace_back(*e);
  for (const auto& e : extra_env) env_store.push_back(e);
  std::vector<char*> env;
  for (auto& e : env_store) env.push_back(e.data());
  env.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  // Signals blocked in the test (none usually) must not leak into the child.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t empty;
  sigemptyset(&empty);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  int err = posix_spawn(&pid, args[0], &fa, &attr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return err == 0 ? pid : -1;
}

int DecodeWaitStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return -1;
}

// waitpid with a deadline; nullopt if still running at the deadline.
std::optional<int> WaitWithTimeout(pid_t pid, std::chrono::milliseconds timeout) {
  auto deadline = SteadyClock::now() + timeout;
  while (true) {
    int status = 0;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return DecodeWaitStatus(status);
    if (r < 0) return -1;
    if (SteadyClock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(10ms);
  }
}

}  // namespace

ProgramResult RunProgram(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                         const std::vector<std::string>& env) {
  ProgramResult result;
  TempDir tmp;
  std::string log = tmp.Path("output.txt");
  pid_t pid = SpawnLogged(argv, log, env);
  if (pid < 0) {
    result.output = "cannot start " + argv[0];
    return result;
  }
  auto code = WaitWithTimeout(pid, timeout);
  if (!code) {
    result.timed_out = true;
    ::kill(pid, SIGKILL);
    code = WaitWithTimeout(pid, 5s);
  }
  result.exit_code = code.value_or(-1);
  result.output = ReadFile(log);
  return result;
}

nlohmann::json DaemonProcess::DefaultConfig(const std::filesystem::path& dir) {
  // Discovery looks at empty stand-ins for /sys, /dev, udev and /proc, and
  // the tools do not exist, so a test daemon never sees (or touches) this
  // machine's drives; no schedules run.
  const std::filesystem::path host = dir / "host";
  for (const char* sub : {"sys", "dev", "udev", "proc"})
    std::filesystem::create_directories(host / sub);
  const std::string no_tool = (host / "no-such-tool").string();
  return {
      {"listen", "127.0.0.1:0"},
      {"database", (dir / "var" / "diskpulse.db").string()},
      {"pidfile", (dir / "var" / "diskpulsed.pid").string()},
      {"webui_root", std::string(DP_SOURCE_DIR) + "/webui"},
      {"log_level", "debug"},
      {"inventory",
       {{"sysfs_root", (host / "sys").string()},
        {"dev_root", (host / "dev").string()},
        {"udev_data_dir", (host / "udev").string()},
        {"proc_root", (host / "proc").string()}}},
      {"tools",
       {{"smartctl", no_tool},
        {"zpool", no_tool},
        {"geom", no_tool},
        {"diskinfo", no_tool},
        {"camcontrol", no_tool}}},
      {"schedules", nlohmann::json::array()},
  };
}

std::unique_ptr<DaemonProcess> DaemonProcess::Spawn(const TempDir& dir,
                                                    const std::vector<std::string>& args) {
  std::unique_ptr<DaemonProcess> d(new DaemonProcess());
  // Several daemons may share one TempDir: give each its own log.
  static int counter = 0;
  d->log_path_ = dir.Path("diskpulsed-" + std::to_string(++counter) + ".log");
  std::vector<std::string> argv = {DP_DAEMON_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "-c") d->config_path_ = args[i + 1];
  d->pid_ = SpawnLogged(argv, d->log_path_, {});
  return d;
}

Result<std::unique_ptr<DaemonProcess>> DaemonProcess::Start(const TempDir& dir,
                                                            const nlohmann::json& patch,
                                                            std::chrono::milliseconds timeout) {
  nlohmann::json config = DefaultConfig(dir.path());
  if (!patch.is_null()) config.merge_patch(patch);
  std::string config_path = dir.Write("diskpulse.json", config.dump(2) + "\n");
  auto d = Spawn(dir, {"-c", config_path, "--foreground"});
  if (d->pid_ < 0) return Internal("cannot start " + std::string(DP_DAEMON_BIN));

  static const std::regex kListening(R"(listening on (https?)://([^ /]+):(\d+)/)");
  auto deadline = SteadyClock::now() + timeout;
  while (true) {
    std::string out = d->Output();
    std::smatch m;
    if (std::regex_search(out, m, kListening)) {
      d->port_ = std::stoi(m[3].str());
      d->url_ = m[1].str() + "://" + m[2].str() + ":" + m[3].str() + "/";
      return d;
    }
    if (!d->Running())
      return Internal("diskpulsed exited with " + std::to_string(d->exit_code_.value_or(-1)) +
                      " before listening; its output:\n" + out);
    if (SteadyClock::now() >= deadline)
      return Timeout("diskpulsed did not start listening in time; its output:\n" + out);
    std::this_thread::sleep_for(10ms);
  }
}

DaemonProcess::~DaemonProcess() {
  if (pid_ > 0 && Running()) {
    ::kill(pid_, SIGKILL);
    WaitExit(5s);
  }
}

std::string DaemonProcess::Output() const { return ReadFile(log_path_); }

bool DaemonProcess::WaitForOutput(const std::string& needle,
                                  std::chrono::milliseconds timeout) const {
  auto deadline = SteadyClock::now() + timeout;
  while (true) {
    if (Output().find(needle) != std::string::npos) return true;
    if (SteadyClock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
}

void DaemonProcess::Signal(int sig) const {
  if (pid_ > 0) ::kill(pid_, sig);
}

std::optional<int> DaemonProcess::WaitExit(std::chrono::milliseconds timeout) {
  if (exit_code_) return exit_code_;
  if (pid_ <= 0) return -1;
  exit_code_ = WaitWithTimeout(pid_, timeout);
  return exit_code_;
}

bool DaemonProcess::Running() {
  if (exit_code_) return false;
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    exit_code_ = DecodeWaitStatus(status);
    return false;
  }
  return r == 0;
}

}  // namespace dp::testing
