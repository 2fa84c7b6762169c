// Dropping root after start-up (docs/security.md): the daemon
// binds its port, opens its database and takes its locks as root, then runs
// as an ordinary user. Device opens and tools then go through the
// privileged helper forked just before (priv_helper.h).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace dp {

// Gives `paths` (the database, its -wal/-shm and lock files, their folder) to
// `user`, then switches uid, gid and supplementary groups to the user's and
// checks root cannot be regained. Paths that do not exist are skipped.
// Not running as root: OK if already that user, else FailedPrecondition.
Status DropPrivileges(const std::string& user, const std::vector<std::string>& paths);

}  // namespace dp
