#include "base/mounts.h"

namespace dp {

std::string ScratchDirMismatch(const std::string& pool, const std::string& dir) {
  const std::optional<MountInfo> m = MountOf(dir);
  if (!m) return "";
  if (m->fstype == "zfs") {
    const std::string of = m->source.substr(0, m->source.find('/'));
    if (of == pool) return "";
    return dir + " is on ZFS dataset " + m->source + " (pool " + of + "), not on pool " + pool;
  }
  // An md array's file system is mounted from its own device (/dev/md0,
  // /dev/md/NAME).
  const std::string device = m->source.substr(m->source.rfind('/') + 1);
  if (device == pool) return "";
  return dir + " is on a " + m->fstype + " file system (" + m->source + " on " + m->mount_point +
         "), not on pool " + pool;
}

}  // namespace dp
