#include "app/first_start_token.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>

#include "app/database_dir.h"
#include "base/status.h"

namespace dp {
namespace {

constexpr std::size_t kTokenBytes = 24;  // 192 bits, 48 hex digits

Result<std::string> RandomHex(std::size_t bytes) {
  // /dev/urandom: the same on Linux and FreeBSD, never blocks once booted.
  const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, "/dev/urandom: cannot open");
  std::string raw(bytes, '\0');
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::read(fd, raw.data() + got, bytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      ::close(fd);
      return ErrnoStatus(e, "/dev/urandom: cannot read");
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : raw) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return hex;
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::string FirstStartTokenPath(const Config& c) {
  return DatabaseDirectory(c.database) + "/api-token";
}

Result<std::optional<FirstStartToken>> TakeFirstStartToken(Config& c) {
  if (!ReadsNeedToken(c) || !c.api_token.empty() || !c.read_token.empty())
    return std::optional<FirstStartToken>();
  FirstStartToken t;
  t.path = FirstStartTokenPath(c);
  if (std::ifstream in(t.path); in) {
    std::string line;
    std::getline(in, line);
    t.token = Trimmed(line);
    if (t.token.size() < 16)
      return InvalidArgument(t.path + ": the kept API token is too short (" +
                             std::to_string(t.token.size()) +
                             " characters); delete the file to make a new one");
  } else {
    DP_ASSIGN_OR_RETURN(t.token, RandomHex(kTokenBytes));
    // Written under a temporary name and renamed: a crash never leaves half a
    // token that the next start would take as the owner's.
    const std::string tmp = t.path + ".new";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return ErrnoStatus(errno, tmp + ": cannot create the API token file");
    const std::string text = t.token + "\n";
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int e = errno;
    ::fchmod(fd, 0600);
    if (::close(fd) != 0 || !written) {
      ::unlink(tmp.c_str());
      return ErrnoStatus(written ? errno : e, tmp + ": cannot write the API token");
    }
    if (::rename(tmp.c_str(), t.path.c_str()) != 0) {
      const int re = errno;
      ::unlink(tmp.c_str());
      return ErrnoStatus(re, t.path + ": cannot store the API token");
    }
    t.made_now = true;
  }
  c.api_token = t.token;
  return std::optional<FirstStartToken>(std::move(t));
}

}  // namespace dp
