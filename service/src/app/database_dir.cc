#include "app/database_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace dp {

std::string DatabaseDirectory(const std::string& database_path) {
  auto slash = database_path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return database_path.substr(0, slash);
}

Status PrepareDatabaseDirectory(const std::string& database_path) {
  std::string dir = DatabaseDirectory(database_path);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) return ErrnoStatus(errno, dir + ": the database directory");
    if (::mkdir(dir.c_str(), 0750) != 0)
      return ErrnoStatus(errno, dir + ": cannot create the database directory");
  } else if (!S_ISDIR(st.st_mode)) {
    return FailedPrecondition(dir + " is not a directory (it should hold the database)");
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return ErrnoStatus(errno, dir + ": the database directory is not writable");
  return Status::Ok();
}

}  // namespace dp
