// The file system a path lives on, and whether it belongs to a pool: a
// pool-write scratch directory must be on the pool it measures (a ZFS dataset
// of that pool, or the md array's own device), or the figures filed under
// the pool's name would be another file system's.
#pragma once

#include <optional>
#include <string>

namespace dp {

struct MountInfo {
  std::string fstype;       // "zfs", "ext4", "tmpfs", ...
  std::string source;       // a ZFS dataset ("tank/scratch") or a device ("/dev/md0")
  std::string mount_point;
};

// The mount holding `path` (platform file: /proc/self/mountinfo on Linux,
// statfs on FreeBSD); nullopt when the path does not exist or cannot be told.
std::optional<MountInfo> MountOf(const std::string& path);

// Why `dir` is not on `pool` ("/backup/x is on ZFS dataset backup/x (pool
// backup), not on pool tank"); "" when it is, or when it cannot be told (the
// directory does not exist yet).
std::string ScratchDirMismatch(const std::string& pool, const std::string& dir);

}  // namespace dp
