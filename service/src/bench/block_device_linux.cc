// Linux geometry: BLKGETSIZE64 / BLKSSZGET / BLKPBSZGET ioctls and sysfs.
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <optional>
#include <string>

#include "bench/block_device.h"
#include "bench/device_counters.h"

namespace dp::internal {
namespace {

std::string DevKey(dev_t d) { return std::to_string(major(d)) + ":" + std::to_string(minor(d)); }

// /sys/dev/block/MAJ:MIN/queue/rotational (SysfsBlockDir); a partition keeps
// its queue in the parent's folder.
std::optional<long> ReadQueueValue(dev_t d, const std::string& name) {
  const std::string base = SysfsBlockDir(DevKey(d));
  for (const char* rel : {"/queue/", "/../queue/"}) {
    std::ifstream in(base + rel + name);
    long v = -1;
    if (in >> v && v >= 0) return v;
  }
  return std::nullopt;
}

std::optional<bool> ReadRotational(dev_t d) {
  auto v = ReadQueueValue(d, "rotational");
  if (!v || *v > 1) return std::nullopt;
  return *v == 1;
}

}  // namespace

bool IsDiskNode(const struct stat& st) { return S_ISBLK(st.st_mode); }

Status ReadGeometry(int fd, const struct stat& st, const std::string& path, DeviceInfo& info,
                    std::string& stats_key) {
  if (S_ISBLK(st.st_mode)) {
    std::uint64_t size = 0;
    int lbs = 0;
    unsigned int pbs = 0;
    if (::ioctl(fd, BLKGETSIZE64, &size) != 0) return ErrnoStatus(errno, path + ": BLKGETSIZE64");
    if (::ioctl(fd, BLKSSZGET, &lbs) != 0) return ErrnoStatus(errno, path + ": BLKSSZGET");
    if (::ioctl(fd, BLKPBSZGET, &pbs) != 0) pbs = static_cast<unsigned>(lbs);
    info.size_bytes = size;
    info.logical_block_size = static_cast<std::uint32_t>(lbs);
    info.physical_block_size = pbs ? pbs : static_cast<std::uint32_t>(lbs);
    info.rotational = ReadRotational(st.st_rdev);
    // The block layer's request queue holds nr_requests reads at most; more in
    // flight only wait in the kernel, and the figure would be of that wait.
    if (auto n = ReadQueueValue(st.st_rdev, "nr_requests"); n && *n > 0)
      info.max_queue_depth = static_cast<std::uint32_t>(*n);
    stats_key = DevKey(st.st_rdev);
    return Status::Ok();
  }
  // A regular file: direct-I/O alignment from statx (Linux 6.1+), else a
  // conservative 4096; the file system's device carries the I/O counters.
  info.size_bytes = static_cast<std::uint64_t>(st.st_size);
  std::uint32_t align = 4096;
  struct statx sx {};
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
      sx.stx_dio_offset_align > 0)
    align = sx.stx_dio_offset_align;
  info.logical_block_size = align;
  info.physical_block_size =
      std::max<std::uint32_t>(align, static_cast<std::uint32_t>(st.st_blksize));
  info.rotational = ReadRotational(st.st_dev);
  stats_key = DevKey(st.st_dev);
  return Status::Ok();
}

}  // namespace dp::internal
