#include "bench/bench_test_util.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace dp::testing {
namespace {

std::string Drain(int fd) {
  std::string s;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<std::size_t>(n));
  return s;
}

}  // namespace

CliResult RunCli(const std::vector<std::string>& args, int uid, const std::string& binary) {
  CliResult r;
  char out_tmpl[] = "/tmp/dp-cli-out-XXXXXX";
  char err_tmpl[] = "/tmp/dp-cli-err-XXXXXX";
  int out_fd = mkstemp(out_tmpl), err_fd = mkstemp(err_tmpl);
  ::unlink(out_tmpl);
  ::unlink(err_tmpl);
  std::vector<std::string> argv = {binary.empty() ? std::string(DP_CLI_BIN) : binary, "bench"};
  argv.insert(argv.end(), args.begin(), args.end());
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    if (uid >= 0 && (::setgroups(0, nullptr) != 0 || ::setgid(static_cast<gid_t>(uid)) != 0 ||
                     ::setuid(static_cast<uid_t>(uid)) != 0))
      ::_exit(126);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  ::lseek(out_fd, 0, SEEK_SET);
  ::lseek(err_fd, 0, SEEK_SET);
  r.out = Drain(out_fd);
  r.err = Drain(err_fd);
  ::close(out_fd);
  ::close(err_fd);
  return r;
}

std::string PatternBytes(std::uint64_t offset, std::size_t length) {
  std::string s(length, '\0');
  for (std::size_t i = 0; i < length; ++i) {
    std::uint64_t x = (offset + i) * 0x9E3779B97F4A7C15ULL;
    s[i] = static_cast<char>((x >> 56) ^ ((offset + i) >> 12));
  }
  return s;
}

}  // namespace dp::testing
