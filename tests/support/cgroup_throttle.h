// CgroupThrottle: a cgroup that slows a device down in the kernel, for tests
// that need a device of known speed. Two kernel interfaces, chosen by Choose():
//   - cgroup v1 blkio, when its throttle files exist (blkio.throttle.
//     read_bps_device, read_iops_device, write_*: "MAJ:MIN VALUE");
//   - else cgroup v2 io.max, when a cgroup2 hierarchy offers the io controller
//     (stock Debian 12 is v2 only): one line per device, "MAJ:MIN rbps=N
//     wbps=N riops=N wiops=N", "max" for no limit.
// RAII: Create makes <root>/diskpulse-test-<pid>-<n> (on v2 it first enables
// io in the root's cgroup.subtree_control); the destructor moves every process
// still inside back where it came from, clears the limits and removes the
// cgroup — also when a test fails. Create also logs which interface it used
// (stderr and the test's XML property "kernel_throttle"). Unavailable() says
// why neither can work here, for DP_SKIP_WITHOUT. The paths come from CgroupFs,
// so the selection and the files written can be tested against a temp folder
// laid out like cgroupfs. One owner; not thread-safe.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "base/result.h"

namespace dp::testing {

// Where the cgroup file systems are; the defaults are the running machine's.
struct CgroupFs {
  std::string blkio_v1 = "/sys/fs/cgroup/blkio";
  std::string unified_v2;  // "" = the first cgroup2 mount listed in mounts_file
  std::string mounts_file = "/proc/self/mounts";
  std::string proc_root = "/proc";
};

enum class ThrottleKind { kV1Blkio, kV2IoMax };
const char* ThrottleKindName(ThrottleKind kind);  // "cgroup v1 blkio", "cgroup v2 io.max"

// Limits of one device; 0 is no limit.
struct DeviceLimits {
  std::uint64_t read_bps = 0, write_bps = 0, read_iops = 0, write_iops = 0;
};
// The io.max line for one device: "8:16 rbps=1000 wbps=max riops=max wiops=max".
std::string FormatIoMax(std::uint32_t major, std::uint32_t minor, const DeviceLimits& limits);

class CgroupThrottle {
 public:
  // The interface `fs` offers and the root folder its test cgroups go in
  // (the v1 blkio mount or the cgroup2 mount); an error says why neither.
  struct Choice {
    ThrottleKind kind;
    std::string root;
  };
  static Result<Choice> Choose(const CgroupFs& fs = {});
  // "" when Create can work here (root, and Choose succeeds), else why not.
  static std::string Unavailable(const CgroupFs& fs = {});
  // Also removes empty cgroups left by earlier test processes that died.
  static Result<std::unique_ptr<CgroupThrottle>> Create(const CgroupFs& fs = {});
  ~CgroupThrottle();
  CgroupThrottle(const CgroupThrottle&) = delete;
  CgroupThrottle& operator=(const CgroupThrottle&) = delete;

  ThrottleKind kind() const { return kind_; }
  const std::string& path() const { return path_; }
  // "cgroup v2 io.max (/sys/fs/cgroup/diskpulse-test-12-0)".
  std::string Describe() const;

  // Limits for device MAJ:MIN; 0 removes the limit.
  Status SetReadBps(std::uint32_t major, std::uint32_t minor, std::uint64_t bytes_per_second);
  Status SetReadIops(std::uint32_t major, std::uint32_t minor, std::uint64_t ios_per_second);
  Status SetWriteBps(std::uint32_t major, std::uint32_t minor, std::uint64_t bytes_per_second);
  Status SetWriteIops(std::uint32_t major, std::uint32_t minor, std::uint64_t ios_per_second);

  // Moves a whole process (all its threads) in; remembers where it was.
  Status AddProcess(pid_t pid);
  // Moves it back to where it was before AddProcess.
  Status RemoveProcess(pid_t pid);

 private:
  CgroupThrottle() = default;
  enum class Field { kReadBps, kWriteBps, kReadIops, kWriteIops };
  Status SetLimit(Field field, std::uint32_t major, std::uint32_t minor, std::uint64_t value);
  // The cgroup folder of this kind that pid is in now.
  std::string CgroupOf(pid_t pid) const;

  CgroupFs fs_;
  ThrottleKind kind_ = ThrottleKind::kV1Blkio;
  std::string root_, path_;
  std::map<pid_t, std::string> origin_;  // pid -> the cgroup folder it came from
  // "MAJ:MIN" -> what is set; every entry is cleared on teardown.
  std::map<std::string, DeviceLimits> limits_;
};

}  // namespace dp::testing
