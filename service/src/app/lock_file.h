// LockFile: a file held with an exclusive flock(2) for the life of the
// object, holding the owner's pid. Used for the pidfile and for the lock
// beside the database, so a second diskpulsed on the same pidfile or the same
// database is refused with the first one's pid. The lock dies with the
// process, so a stale file left by a crash never blocks a restart.
// Not thread-safe; owned by the Daemon.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "base/result.h"

namespace dp {

class LockFile {
 public:
  // Creates (mode 0644) or opens path and locks it without waiting.
  // AlreadyExists "PATH is locked by process PID" when another process holds
  // it; errno statuses (PermissionDenied, NotFound, ...) otherwise.
  // remove_on_release: unlink the file in the destructor (pidfiles).
  static Result<std::unique_ptr<LockFile>> Acquire(const std::string& path,
                                                   bool remove_on_release);
  ~LockFile();
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

  // Replaces the file's contents with "<pid>\n" (call again after fork).
  Status WritePid(pid_t pid);

  const std::string& path() const { return path_; }
  int fd() const { return fd_; }

 private:
  LockFile(std::string path, int fd, bool remove) : path_(std::move(path)), fd_(fd),
                                                    remove_(remove) {}
  std::string path_;
  int fd_;
  bool remove_;
};

}  // namespace dp
