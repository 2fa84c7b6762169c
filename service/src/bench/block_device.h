// BlockDevice: a drive (or a regular file) opened for reading only, with
// O_DIRECT so the page cache never answers for the drive. Read-only by
// construction: it has no write method and its descriptor is O_RDONLY.
// Knows the target's size, logical/physical block size and rotational flag
// (platform queries in block_device_linux.cc / block_device_freebsd.cc).
//
// DeviceOpener is the seam through which everything opens targets (the
// unprivileged daemon's opener gets descriptors from its privileged helper,
// app/priv_client.h, and wraps them with BlockDevice::Adopt).
// A BlockDevice is immutable after Open; its descriptor may be used by many
// threads at once (pread is thread-safe).
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/result.h"
#include "model/bench_result.h"

namespace dp {

class BlockDevice {
 public:
  // Opens `path` O_RDONLY | O_DIRECT | O_CLOEXEC. Errors: NotFound, PermissionDenied,
  // InvalidArgument (a directory, a socket..., or a target whose size is not a
  // multiple of its logical block size), Unsupported (no O_DIRECT there, e.g. tmpfs).
  static Result<std::unique_ptr<BlockDevice>> Open(const std::string& path);
  // Takes ownership of `fd`, a descriptor opened elsewhere (the daemon's
  // privileged helper), and reads its geometry; `path` names it in messages.
  // A descriptor open for writing is refused (read-only by construction), as
  // is anything but a disk node or a regular file. fd is closed on error.
  static Result<std::unique_ptr<BlockDevice>> Adopt(int fd, const std::string& path);
  ~BlockDevice();
  BlockDevice(const BlockDevice&) = delete;
  BlockDevice& operator=(const BlockDevice&) = delete;

  const std::string& path() const { return path_; }
  int fd() const { return fd_; }
  const DeviceInfo& info() const { return info_; }
  // True for a disk device node (Linux block device, FreeBSD disk char device).
  bool is_device() const { return is_device_; }
  // Names the device whose I/O counters see our reads (the node itself, or the
  // file system's device for a regular file) for ReadDeviceCounters:
  // "MAJ:MIN" on Linux, the devstat name ("ada0") on FreeBSD; "" when unknown.
  const std::string& stats_key() const { return stats_key_; }
  // Address alignment for I/O buffers: max(logical block size, 4096).
  std::size_t buffer_alignment() const;

  // Reads exactly buf.size() bytes at offset; offset and size must be
  // multiples of the logical block size and buf aligned (AlignedBuffer).
  // A short read is an I/O error ("unexpected end of device").
  Status ReadAt(std::uint64_t offset, std::span<std::byte> buf) const;

 private:
  BlockDevice() = default;
  // Geometry and stats key of the open descriptor (fst is its fstat), checked.
  Status ReadInfo(const struct stat& fst);
  std::string path_;
  int fd_ = -1;
  DeviceInfo info_;
  bool is_device_ = false;
  std::string stats_key_;
};

// The seam for opening targets. Thread-safe.
class DeviceOpener {
 public:
  virtual ~DeviceOpener() = default;
  virtual Result<std::unique_ptr<BlockDevice>> OpenReadOnly(const std::string& path) = 0;
};

// Opens with BlockDevice::Open.
class PosixDeviceOpener final : public DeviceOpener {
 public:
  Result<std::unique_ptr<BlockDevice>> OpenReadOnly(const std::string& path) override {
    return BlockDevice::Open(path);
  }
};

namespace internal {
// Platform part of Open (block_device_<os>.cc): whether st describes a disk
// node; the geometry of an open disk node or regular file, and its stats key.
bool IsDiskNode(const struct stat& st);
Status ReadGeometry(int fd, const struct stat& st, const std::string& path, DeviceInfo& info,
                    std::string& stats_key);
}  // namespace internal

}  // namespace dp
