#include "bench/block_device.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "bench/aligned_buffer.h"

namespace dp {

BlockDevice::~BlockDevice() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t BlockDevice::buffer_alignment() const {
  return std::max<std::size_t>(info_.logical_block_size, PageSize());
}

Result<std::unique_ptr<BlockDevice>> BlockDevice::Open(const std::string& path) {
  if (path.empty()) return InvalidArgument("empty target path");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return ErrnoStatus(errno, path);
  if (S_ISDIR(st.st_mode))
    return InvalidArgument(path +
                           ": is a directory; read tests need a device or a file "
                           "(only pool-write takes a directory)");
  bool is_device = internal::IsDiskNode(st);
  if (!is_device && !S_ISREG(st.st_mode))
    return InvalidArgument(path + ": not a disk device or a regular file");

  // Read-only by construction: the only open mode this class ever uses.
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == EINVAL)
      return Unsupported(path +
                         ": direct (uncached) reads are not supported here "
                         "(tmpfs?); put the file on a real file system");
    return ErrnoStatus(err, path);
  }
  std::unique_ptr<BlockDevice> dev(new BlockDevice());
  dev->fd_ = fd;
  dev->path_ = path;
  dev->is_device_ = is_device;
  struct stat fst {};
  if (::fstat(fd, &fst) != 0) return ErrnoStatus(errno, path);
  if (fst.st_dev != st.st_dev || fst.st_ino != st.st_ino)
    return Unavailable(path + ": changed while being opened");
  DP_RETURN_IF_ERROR(dev->ReadInfo(fst));
  return dev;
}

Result<std::unique_ptr<BlockDevice>> BlockDevice::Adopt(int fd, const std::string& path) {
  std::unique_ptr<BlockDevice> dev(new BlockDevice());
  dev->fd_ = fd;  // closed by the destructor, also on every error below
  dev->path_ = path;
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return ErrnoStatus(errno, path);
  if ((flags & O_ACCMODE) != O_RDONLY)
    return PermissionDenied(path + ": descriptor is open for writing; only read-only ones are used");
  struct stat fst {};
  if (::fstat(fd, &fst) != 0) return ErrnoStatus(errno, path);
  dev->is_device_ = internal::IsDiskNode(fst);
  if (!dev->is_device_ && !S_ISREG(fst.st_mode))
    return InvalidArgument(path + ": not a disk device or a regular file");
  DP_RETURN_IF_ERROR(dev->ReadInfo(fst));
  return dev;
}

Status BlockDevice::ReadInfo(const struct stat& fst) {
  const std::string& path = path_;
  DP_RETURN_IF_ERROR(internal::ReadGeometry(fd_, fst, path, info_, stats_key_));
  const DeviceInfo& info = info_;
  if (info.logical_block_size == 0 || (info.logical_block_size & (info.logical_block_size - 1)))
    return Internal(path + ": odd logical block size " + std::to_string(info.logical_block_size));
  if (info.size_bytes == 0) return InvalidArgument(path + ": is empty (0 bytes)");
  if (info.size_bytes % info.logical_block_size != 0)
    return InvalidArgument(path + ": size " + std::to_string(info.size_bytes) +
                           " is not a multiple of the block size " +
                           std::to_string(info.logical_block_size));
  return Status::Ok();
}

Status BlockDevice::ReadAt(std::uint64_t offset, std::span<std::byte> buf) const {
  const std::uint32_t lbs = info_.logical_block_size;
  if (offset % lbs || buf.size() % lbs ||
      reinterpret_cast<std::uintptr_t>(buf.data()) % buffer_alignment())
    return InvalidArgument(path_ + ": unaligned read at " + std::to_string(offset));
  std::size_t done = 0;
  while (done < buf.size()) {
    ssize_t n =
        ::pread(fd_, buf.data() + done, buf.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(errno, path_ + ": read at " + std::to_string(offset + done));
    }
    if (n == 0)
      return IoError(path_ + ": unexpected end of device at " + std::to_string(offset + done) +
                     " (device shrank or went away)");
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

}  // namespace dp
