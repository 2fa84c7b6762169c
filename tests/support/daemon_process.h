// DaemonProcess: the real diskpulsed binary (DP_DAEMON_BIN) run by a test,
// on a free loopback port (listen 127.0.0.1:0; the port is read from the
// "listening on" line), with a config and a database in a TempDir. Its
// stdout and stderr go to one log file the test can read and wait on.
// RunProgram: run any binary (the daemon with --check-config, the CLI) to
// completion with a deadline. For tests only; not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "support/temp_dir.h"

namespace dp::testing {

using namespace std::chrono_literals;

struct ProgramResult {
  int exit_code = -1;  // the exit status, or -SIGNAL when killed by a signal
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved
};

// Runs argv (argv[0] a path) with stdin from /dev/null; kills it after timeout.
// `env` entries ("NAME=value") are added to the environment.
ProgramResult RunProgram(const std::vector<std::string>& argv,
                         std::chrono::milliseconds timeout = 30s,
                         const std::vector<std::string>& env = {});

class DaemonProcess {
 public:
  // A config for a daemon living in dir: listen 127.0.0.1:0,
  // database dir/var/diskpulse.db, pidfile dir/var/diskpulsed.pid,
  // webui_root the source tree's webui/, log_level debug, no schedules, and
  // discovery confined to empty folders under dir/host (created here) with
  // tools that do not exist: the daemon never sees this machine's drives.
  // Patch inventory/tools (or use --replay) to give it drives.
  static nlohmann::json DefaultConfig(const std::filesystem::path& dir);

  // Writes DefaultConfig(dir) merged with `patch` (RFC 7386 merge patch: a
  // null member removes a key; a null patch changes nothing) to dir/diskpulse.json, starts
  // `diskpulsed -c FILE --foreground` and waits until it is listening.
  // The error holds the daemon's output when it exits or does not come up.
  static Result<std::unique_ptr<DaemonProcess>> Start(
      const TempDir& dir, const nlohmann::json& patch = nlohmann::json::object(),
      std::chrono::milliseconds timeout = 15s);

  // Starts `DP_DAEMON_BIN args...` as it is (no waiting); for failure tests.
  static std::unique_ptr<DaemonProcess> Spawn(const TempDir& dir,
                                              const std::vector<std::string>& args);

  ~DaemonProcess();  // SIGKILLs the daemon if it still runs
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  pid_t pid() const { return pid_; }
  int port() const { return port_; }
  std::string url() const { return url_; }  // "http://127.0.0.1:PORT/"
  const std::string& config_path() const { return config_path_; }

  std::string Output() const;  // everything the daemon printed so far
  // True once needle appears in the output (checked every 10 ms).
  bool WaitForOutput(const std::string& needle, std::chrono::milliseconds timeout = 10s) const;
  void Signal(int sig) const;
  // The exit code (or -SIGNAL) once the daemon has exited; nullopt on timeout.
  std::optional<int> WaitExit(std::chrono::milliseconds timeout = 10s);
  bool Running();

 private:
  DaemonProcess() = default;
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  int port_ = 0;
  std::string url_;
  std::string config_path_;
  std::string log_path_;
};

}  // namespace dp::testing
