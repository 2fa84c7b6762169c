#include "base/command_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
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

// Writes a child's stdin without blocking, a chunk whenever poll says the
// pipe has room, and closes it when all is written or the child stopped
// reading. SIGPIPE is blocked on this thread around each write (and a
// pending one consumed), so a child that exits early cannot kill the caller.
class StdinFeeder {
 public:
  StdinFeeder(const std::string* data, Pipe& pipe) : data_(data), pipe_(pipe) {
    if (!data_) return;
    fcntl(pipe_.write_fd(), F_SETFL, fcntl(pipe_.write_fd(), F_GETFL) | O_NONBLOCK);
    if (data_->empty()) pipe_.CloseWrite();
  }
  bool pending() const { return data_ && pipe_.write_fd() >= 0; }

  void Feed() {
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
    ssize_t n = write(pipe_.write_fd(), data_->data() + done_, data_->size() - done_);
    int err = errno;
    if (n < 0 && err == EPIPE) {
      // Consume the SIGPIPE this write raised, unless one was already pending.
      sigset_t pending_set;
      sigpending(&pending_set);
      if (sigismember(&pending_set, SIGPIPE) && !sigismember(&old_set, SIGPIPE)) {
        timespec zero{0, 0};
        sigtimedwait(&pipe_set, nullptr, &zero);
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
    if (n > 0) done_ += static_cast<std::size_t>(n);
    if (done_ >= data_->size() || (n < 0 && err != EINTR && err != EAGAIN)) pipe_.CloseWrite();
  }

 private:
  const std::string* data_;
  Pipe& pipe_;
  std::size_t done_ = 0;
};

// "0.3 s", "20 s", "1.25 s".
std::string SecondsText(std::chrono::milliseconds ms) {
  std::string s = std::to_string(ms.count() / 1000);
  if (long long frac = ms.count() % 1000) {
    char buf[8];
    std::snprintf(buf, sizeof buf, ".%03lld", frac);
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    s += f;
  }
  return s + " s";
}

// Starts spec.argv with stdin from in_pipe (or /dev/null), stdout and stderr
// to their pipes, in its own process group (so a timeout kills grandchildren
// too) with default signal dispositions and an empty mask, whatever the
// daemon uses.
Result<pid_t> Spawn(const CommandSpec& spec, Pipe& out_pipe, Pipe& err_pipe, Pipe& in_pipe) {
  const std::string& tool = spec.argv[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (spec.stdin_data) {
    posix_spawn_file_actions_adddup2(&actions, in_pipe.read_fd(), 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, out_pipe.write_fd(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe.write_fd(), 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
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

  pid_t pid = -1;
  int rc = posix_spawnp(&pid, tool.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc == ENOENT) return NotFound(tool + " not found");
  if (rc == EACCES) return PermissionDenied(tool + ": not executable");
  if (rc != 0) return ErrnoStatus(rc, "cannot run " + tool);
  return pid;
}

}  // namespace

// Whether `tool` names an executable: the path itself, or a file in $PATH
// (what posix_spawnp would have run).
bool Executable(const std::string& tool) {
  if (tool.find('/') != std::string::npos) return access(tool.c_str(), X_OK) == 0;
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "/bin:/usr/bin";
  for (std::size_t start = 0;;) {
    const std::size_t colon = path.find(':', start);
    std::string dir = path.substr(start, colon == std::string::npos ? colon : colon - start);
    if (dir.empty()) dir = ".";
    if (access((dir + "/" + tool).c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) return false;
    start = colon + 1;
  }
}

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
  Pipe out_pipe, err_pipe, in_pipe;
  if (!out_pipe.ok() || !err_pipe.ok() || !in_pipe.ok()) return ErrnoStatus(errno, "pipe");

  auto start = std::chrono::steady_clock::now();
  auto spawned = Spawn(spec, out_pipe, err_pipe, in_pipe);
  if (!spawned.ok()) return spawned.status();
  const pid_t pid = *spawned;
  out_pipe.CloseWrite();
  err_pipe.CloseWrite();
  in_pipe.CloseRead();
  StdinFeeder feeder(spec.stdin_data ? &*spec.stdin_data : nullptr, in_pipe);

  CommandOutput result;
  bool out_open = true, err_open = true, timed_out = false, exited = false;
  int wstatus = 0;
  auto deadline = start + spec.timeout;
  // Once the child has exited, output already in the pipes is still read, but
  // only briefly: a grandchild that escaped the kill below (setsid) may hold
  // the pipes open for ever.
  auto read_until = deadline;
  while (out_open || err_open) {
    auto now = std::chrono::steady_clock::now();
    if (!exited) {
      pid_t w = waitpid(pid, &wstatus, WNOHANG);
      if (w == pid) {
        exited = true;
        in_pipe.CloseWrite();  // nobody is left to read the rest of stdin
        // A backgrounded grandchild still holding our pipes is not ours to keep.
        kill(-pid, SIGKILL);
        read_until = std::min(deadline, now + std::chrono::seconds(1));
      }
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(read_until - now);
    if (left.count() <= 0) {
      timed_out = !exited;
      break;
    }
    pollfd pfds[3];
    int n = 0;
    if (out_open) pfds[n++] = {out_pipe.read_fd(), POLLIN, 0};
    if (err_open) pfds[n++] = {err_pipe.read_fd(), POLLIN, 0};
    if (feeder.pending()) pfds[n++] = {in_pipe.write_fd(), POLLOUT, 0};
    // Wake now and then to notice a child that exited with its pipes still held.
    int pr = poll(pfds, n, static_cast<int>(std::min<long long>(left.count(), 100)));
    if (pr < 0 && errno != EINTR) break;
    for (int i = 0; i < n && pr > 0; ++i) {
      if (pfds[i].fd == in_pipe.write_fd()) {
        if (pfds[i].revents & (POLLOUT | POLLHUP | POLLERR)) feeder.Feed();
        continue;
      }
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

  if (timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    waitpid(pid, &wstatus, 0);
    return Timeout(FormatArgv(spec.argv) + ": no answer after " + SecondsText(spec.timeout) +
                   "; killed");
  }
  // Both pipes closed: the child is exiting (or closed its output). Wait, but
  // still honour the deadline.
  while (!exited) {
    pid_t w = waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return ErrnoStatus(errno, "waitpid");
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      return Timeout(FormatArgv(spec.argv) + ": did not exit within " +
                     SecondsText(spec.timeout) + "; killed");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  // Anything left in the child's group (a daemonised grandchild) is not ours to keep.
  kill(-pid, SIGKILL);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(wstatus)) {
    result.exit_code = WEXITSTATUS(wstatus);
    // posix_spawnp reports an exec failure as exit 127 where the child cannot
    // tell the parent: glibc in some cases, and always under qemu-user (which
    // runs glibc's vfork-style spawn as a plain fork), by path or by $PATH.
    if (result.exit_code == 127 && result.stdout_text.empty() && result.stderr_text.empty() &&
        !Executable(tool)) {
      return NotFound(tool + " not found");
    }
  } else if (WIFSIGNALED(wstatus)) {
    result.exit_code = -1;
    result.term_signal = WTERMSIG(wstatus);
  }
  return result;
}

}  // namespace dp
