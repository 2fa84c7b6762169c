#include <sys/param.h>
#include <sys/mount.h>

#include "base/mounts.h"

namespace dp {

std::optional<MountInfo> MountOf(const std::string& path) {
  struct statfs st {};
  if (::statfs(path.c_str(), &st) != 0) return std::nullopt;
  return MountInfo{st.f_fstypename, st.f_mntfromname, st.f_mntonname};
}

}  // namespace dp
