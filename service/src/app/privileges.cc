#include "app/privileges.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>

namespace dp {

Status DropPrivileges(const std::string& user, const std::vector<std::string>& paths) {
  struct passwd pw {};
  struct passwd* found = nullptr;
  std::string buf(16384, '\0');
  int err = ::getpwnam_r(user.c_str(), &pw, buf.data(), buf.size(), &found);
  if (err != 0) return ErrnoStatus(err, "user '" + user + "'");
  if (!found) return NotFound("user '" + user + "' does not exist (config key \"user\")");

  if (::geteuid() != 0) {
    if (::geteuid() == pw.pw_uid) return Status::Ok();
    return FailedPrecondition("cannot switch to user '" + user +
                              "': diskpulsed is not running as root");
  }
  for (const std::string& p : paths) {
    if (::access(p.c_str(), F_OK) != 0) continue;
    if (::chown(p.c_str(), pw.pw_uid, pw.pw_gid) != 0)
      return ErrnoStatus(errno, p + ": cannot give to user '" + user + "'");
  }
  if (::initgroups(pw.pw_name, pw.pw_gid) != 0)
    return ErrnoStatus(errno, "initgroups for '" + user + "'");
  if (::setgid(pw.pw_gid) != 0) return ErrnoStatus(errno, "setgid for '" + user + "'");
  if (::setuid(pw.pw_uid) != 0) return ErrnoStatus(errno, "setuid for '" + user + "'");
  if (pw.pw_uid != 0 && ::setuid(0) == 0)
    return Internal("still able to regain root after switching to '" + user + "'");
  return Status::Ok();
}

}  // namespace dp
