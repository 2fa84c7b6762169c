#include "app/lock_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace dp {
namespace {

// The pid written in the file, 0 if none can be read.
long ReadPid(int fd) {
  char buf[32] = {};
  ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return 0;
  return std::strtol(buf, nullptr, 10);
}

}  // namespace

Result<std::unique_ptr<LockFile>> LockFile::Acquire(const std::string& path,
                                                    bool remove_on_release) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return ErrnoStatus(errno, path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    long pid = ReadPid(fd);
    ::close(fd);
    if (err == EWOULDBLOCK) {
      std::string holder = pid > 0 ? "process " + std::to_string(pid) : "another process";
      return AlreadyExists(path + " is locked by " + holder);
    }
    return ErrnoStatus(err, path + ": cannot lock");
  }
  return std::unique_ptr<LockFile>(new LockFile(path, fd, remove_on_release));
}

LockFile::~LockFile() {
  // Unlink before unlocking so no newcomer can lock the file we remove.
  if (remove_) ::unlink(path_.c_str());
  ::close(fd_);
}

Status LockFile::WritePid(pid_t pid) {
  std::string text = std::to_string(pid) + "\n";
  if (::ftruncate(fd_, 0) != 0) return ErrnoStatus(errno, path_);
  if (::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
    return ErrnoStatus(errno, path_);
  return Status::Ok();
}

}  // namespace dp
