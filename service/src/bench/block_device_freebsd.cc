// FreeBSD geometry: disks are character devices answering the DIOC* ioctls
// of <sys/disk.h>; regular files use stat and their file system's device.
// Not compiled on Linux: keep it to documented FreeBSD interfaces.
#include <sys/disk.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/param.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include "bench/block_device.h"

namespace dp::internal {
namespace {

// "/dev/ada0p2" -> "ada0p2" (the devstat name).
std::string DevName(const std::string& path) {
  std::string p = path;
  if (p.rfind("/dev/", 0) == 0) p = p.substr(5);
  return p;
}

// GEOM::rotation_rate: 0 unknown, 1 non-rotating, else the spindle RPM.
std::optional<bool> ReadRotational(int fd) {
  struct diocgattr_arg arg;
  std::memset(&arg, 0, sizeof(arg));
  std::strncpy(arg.name, "GEOM::rotation_rate", sizeof(arg.name) - 1);
  arg.len = sizeof(arg.value.u16);
  if (::ioctl(fd, DIOCGATTR, &arg) != 0) return std::nullopt;
  if (arg.value.u16 == 0) return std::nullopt;
  return arg.value.u16 != 1;
}

}  // namespace

bool IsDiskNode(const struct stat& st) { return S_ISCHR(st.st_mode); }

Status ReadGeometry(int fd, const struct stat& st, const std::string& path, DeviceInfo& info,
                    std::string& stats_key) {
  if (S_ISCHR(st.st_mode)) {
    off_t media = 0, stripe = 0;
    u_int sector = 0;
    if (::ioctl(fd, DIOCGMEDIASIZE, &media) != 0)
      return ErrnoStatus(errno, path + ": DIOCGMEDIASIZE");
    if (::ioctl(fd, DIOCGSECTORSIZE, &sector) != 0)
      return ErrnoStatus(errno, path + ": DIOCGSECTORSIZE");
    if (::ioctl(fd, DIOCGSTRIPESIZE, &stripe) != 0) stripe = 0;
    info.size_bytes = static_cast<std::uint64_t>(media);
    info.logical_block_size = sector;
    info.physical_block_size =
        stripe > 0 ? static_cast<std::uint32_t>(std::max<off_t>(stripe, sector)) : sector;
    info.rotational = ReadRotational(fd);
    stats_key = DevName(path);
    return Status::Ok();
  }
  info.size_bytes = static_cast<std::uint64_t>(st.st_size);
  info.logical_block_size = 4096;
  info.physical_block_size =
      std::max<std::uint32_t>(4096, static_cast<std::uint32_t>(st.st_blksize));
  struct statfs sfs;
  if (::fstatfs(fd, &sfs) == 0) stats_key = DevName(sfs.f_mntfromname);
  return Status::Ok();
}

}  // namespace dp::internal
