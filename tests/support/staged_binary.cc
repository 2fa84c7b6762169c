#include "support/staged_binary.h"

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace dp::testing {

Status CheckExecutableAs(const std::string& path, uid_t uid, gid_t gid) {
  int fds[2];
  if (::pipe(fds) != 0) return ErrnoStatus(errno, "pipe");
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return ErrnoStatus(err, "fork");
  }
  if (pid == 0) {
    ::close(fds[0]);
    int err = 0;
    if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
      err = errno ? errno : EPERM;
    else if (::access(path.c_str(), X_OK) != 0)
      err = errno;
    (void)!::write(fds[1], &err, sizeof err);
    ::_exit(0);
  }
  ::close(fds[1]);
  int err = EIO;
  if (::read(fds[0], &err, sizeof err) != static_cast<ssize_t>(sizeof err)) err = EIO;
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (err == 0) return Status::Ok();
  return FailedPrecondition("uid " + std::to_string(uid) + " cannot execute " + path + ": " +
                            std::strerror(err));
}

Result<std::unique_ptr<StagedBinary>> StagedBinary::Create(const std::string& binary,
                                                           uid_t uid, gid_t gid) {
  std::unique_ptr<StagedBinary> staged(new StagedBinary());
  // mkdtemp made the folder 0700; the user must be able to enter it.
  if (::chmod(staged->dir_.path().c_str(), 0755) != 0)
    return ErrnoStatus(errno, staged->dir_.path().string());
  std::filesystem::path to =
      staged->dir_.path() / std::filesystem::path(binary).filename();
  std::error_code ec;
  std::filesystem::copy_file(binary, to, ec);
  if (ec) return IoError("copy " + binary + " to " + to.string() + ": " + ec.message());
  if (::chmod(to.c_str(), 0755) != 0) return ErrnoStatus(errno, to.string());
  staged->path_ = to.string();
  DP_RETURN_IF_ERROR(CheckExecutableAs(staged->path_, uid, gid));
  return staged;
}

}  // namespace dp::testing
