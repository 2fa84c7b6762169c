// Linux: /sys/dev/block/MAJ:MIN/stat (Documentation/block/stat.rst): fields
// 1 read I/Os, 2 read merges, 3 read sectors, 5 write I/Os, 6 write merges,
// 7 write sectors (512-byte units, whatever the device's sector size),
// 10 io_ticks (ms with I/O in flight). Loop devices and partitions have it too.
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#include "base/thread_annotations.h"
#include "bench/aligned_buffer.h"
#include "bench/device_counters.h"

namespace dp {

std::string SysfsBlockDir(const std::string& maj_min) {
  const std::string direct = "/sys/dev/block/" + maj_min;
  std::error_code ec;
  if (std::filesystem::exists(direct + "/dev", ec)) return direct;
  // Found once per device: the contention guard reads the counters often.
  static Mutex mu;
  static std::map<std::string, std::string> found GUARDED_BY(mu);
  MutexLock lock(mu);
  if (auto it = found.find(maj_min); it != found.end()) return it->second;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/class/block", ec)) {
    std::ifstream dev(entry.path() / "dev");
    std::string v;
    if (dev >> v && v == maj_min) return found[maj_min] = entry.path().string();
  }
  return direct;
}

Result<DeviceCounters> ReadDeviceCounters(const std::string& stats_key) {
  if (stats_key.empty()) return NotFound("no device to read I/O counters from");
  const std::string base = SysfsBlockDir(stats_key);
  std::ifstream in(base + "/stat");
  std::uint64_t f[10] = {};
  for (auto& v : f) {
    if (!(in >> v)) return NotFound(base + "/stat: no I/O counters");
  }
  DeviceCounters c;
  c.read_ios = f[0];
  c.read_merges = f[1];
  c.read_bytes = f[2] * 512;
  c.write_ios = f[4];
  c.write_merges = f[5];
  c.write_bytes = f[6] * 512;
  c.busy_ms = f[9];
  // A read is split at max_sectors_kb, and at max_segments scatter-gather
  // entries: a buffer whose pages are not physically contiguous needs a
  // segment per page, so only reads up to max_segments pages are surely one
  // request (loop devices: 128 segments = 512 KiB with 4 KiB pages, 8 MiB
  // with 64 KiB ones). A partition keeps its queue in the parent's folder.
  for (const char* q : {"/queue/", "/../queue/"}) {
    std::uint64_t kb = 0, segments = 0;
    std::ifstream a(base + q + "max_sectors_kb"), b(base + q + "max_segments");
    if (!(a >> kb) || kb == 0) continue;
    c.max_request_bytes = kb * 1024;
    c.unsplit_bytes = c.max_request_bytes;
    if (b >> segments && segments > 0 && segments * PageSize() < c.unsplit_bytes)
      c.unsplit_bytes = segments * PageSize();
    break;
  }
  return c;
}

}  // namespace dp
