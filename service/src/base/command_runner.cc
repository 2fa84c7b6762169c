#include "base/command_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

extern char** environ;

namespace dp {
namespace {

class Pipe {
 public:
  Pipe() {
    if (pipe2(fds_, O_CLOEXEC) != 0) fds_[0] = fds_[1] = -1;
  }
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }
  bool ok() const { return fds_[0] >= 0; }
  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void CloseRead() {
    if (fds_[0] >= 0) close(fds_[0]);
    fds_[0] = -1;
  }
  void CloseWrite() {
    if (fds_[1] >= 0) close(fds_[1]);
    fds_[1] = -1;
  }

 private:
  int fds_[2];
};

// Appends what is readable on fd to out, up to cap; returns false at EOF.
bool Drain(int fd, std::string& out, std::size_t cap, bool& truncated) {
  char buf[16384];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  std::size_t room = out.size() < cap ? cap - out.size() : 0;
  std::size_t take = std::min<std::size_t>(room, static_cast<std::size_t>(n));
  out.append(buf, take);
  if (take < static_cast<std::size_t>(n)) truncated = true;
  return true;
}

}  // namespace

std::string FormatArgv(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`") == std::string::npos;
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) {
        if (c == '\'') out += "'\\''";
        else out += c;
      }
      out += '\'';
    }
  }
  return out;
}

Result<CommandOutput> PosixCommandRunner::Run(const CommandSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty()) return InvalidArgument("empty command");
  const std::string& tool = spec.argv[0];
  Pipe out_pipe, err_pipe;
  if (!out_pipe.ok() || !err_pipe.ok()) return ErrnoStatus(errno, "pipe");

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe.write_fd(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe.write_fd(), 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Own process group, so a timeout kills grandchildren too; default signal
  // dispositions and an empty mask, whatever the daemon uses.
  sigset_t empty, all;
  sigemptyset(&empty);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> argv;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, tool.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc == ENOENT) return NotFound(tool + " not found");
  if (rc == EACCES) return PermissionDenied(tool + ": not executable");
  if (rc != 0) return ErrnoStatus(rc, "cannot run " + tool);
  out_pipe.CloseWrite();
  err_pipe.CloseWrite();

  CommandOutput result;
  bool out_open = true, err_open = true, timed_out = false;
  auto deadline = start + spec.timeout;
  while (out_open || err_open) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfds[2];
    int n = 0;
    if (out_open) pfds[n++] = {out_pipe.read_fd(), POLLIN, 0};
    if (err_open) pfds[n++] = {err_pipe.read_fd(), POLLIN, 0};
    int pr = poll(pfds, n, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (pr < 0 && errno != EINTR) break;
    for (int i = 0; i < n && pr > 0; ++i) {
      if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (pfds[i].fd == out_pipe.read_fd()) {
        out_open = Drain(pfds[i].fd, result.stdout_text, spec.max_output_bytes,
                         result.stdout_truncated);
      } else {
        err_open = Drain(pfds[i].fd, result.stderr_text, spec.max_output_bytes,
                         result.stderr_truncated);
      }
    }
  }

  int wstatus = 0;
  if (timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    waitpid(pid, &wstatus, 0);
    return Timeout(FormatArgv(spec.argv) + ": no answer after " +
                   std::to_string(spec.timeout.count() / 1000.0).substr(0, 5) +
                   " s; killed");
  }
  // Both pipes closed: the child is exiting (or closed its output). Wait, but
  // still honour the deadline.
  while (true) {
    pid_t w = waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return ErrnoStatus(errno, "waitpid");
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      return Timeout(FormatArgv(spec.argv) + ": did not exit in time; killed");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  // Anything left in the child's group (a daemonised grandchild) is not ours to keep.
  kill(-pid, SIGKILL);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(wstatus)) {
    result.exit_code = WEXITSTATUS(wstatus);
    // posix_spawnp in glibc reports exec failure as exit 127 in some cases.
    if (result.exit_code == 127 && result.stdout_text.empty() && result.stderr_text.empty() &&
        tool.find('/') != std::string::npos && access(tool.c_str(), X_OK) != 0) {
      return NotFound(tool + " not found");
    }
  } else if (WIFSIGNALED(wstatus)) {
    result.exit_code = -1;
    result.term_signal = WTERMSIG(wstatus);
  }
  return result;
}

}  // namespace dp
