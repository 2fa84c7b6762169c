// StagedBinary: a copy of a built program in a fresh world-readable temp
// folder, for tests that drop to an unprivileged user. The build tree may sit
// under a home that user cannot enter (root's home is 0700 on Debian), so
// running DP_CLI_BIN or DP_DAEMON_BIN as that user would fail with exit 127
// before the behaviour under test is reached. Create() checks, in a child that
// really becomes that user, that the copy can be executed; its error says why
// not, for DP_SKIP_WITHOUT. RAII: the copy and its folder go when it dies.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "base/result.h"
#include "support/temp_dir.h"

namespace dp::testing {

class StagedBinary {
 public:
  static Result<std::unique_ptr<StagedBinary>> Create(const std::string& binary, uid_t uid,
                                                      gid_t gid);
  const std::string& path() const { return path_; }

 private:
  StagedBinary() = default;
  TempDir dir_;
  std::string path_;
};

// OK when uid/gid (no supplementary groups) can reach and execute `path`;
// otherwise the error names the path and errno. Needs root to switch users.
Status CheckExecutableAs(const std::string& path, uid_t uid, gid_t gid);

}  // namespace dp::testing
