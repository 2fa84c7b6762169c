// Linux: /sys/dev/block/MAJ:MIN/stat (Documentation/block/stat.rst): fields
// 1 read I/Os, 3 read sectors, 5 write I/Os, 7 write sectors (512-byte units,
// whatever the device's sector size). Loop devices and partitions have it too.
#include <fstream>
#include <string>

#include "bench/device_counters.h"

namespace dp {

Result<DeviceCounters> ReadDeviceCounters(const std::string& stats_key) {
  if (stats_key.empty()) return NotFound("no device to read I/O counters from");
  const std::string base = "/sys/dev/block/" + stats_key;
  std::ifstream in(base + "/stat");
  std::uint64_t f[8] = {};
  for (auto& v : f) {
    if (!(in >> v)) return NotFound(base + "/stat: no I/O counters");
  }
  DeviceCounters c;
  c.read_ios = f[0];
  c.read_bytes = f[2] * 512;
  c.write_ios = f[4];
  c.write_bytes = f[6] * 512;
  // A read is split at max_sectors_kb, and at max_segments scatter-gather
  // entries: our buffers are page-aligned but not physically contiguous, so
  // count a page per segment (loop devices: 128 segments = 512 KiB).
  for (const char* q : {"/queue/", "/../queue/"}) {
    std::uint64_t kb = 0, segments = 0;
    std::ifstream a(base + q + "max_sectors_kb"), b(base + q + "max_segments");
    if (!(a >> kb) || kb == 0) continue;
    c.max_request_bytes = kb * 1024;
    if (b >> segments && segments > 0 && segments * 4096 < c.max_request_bytes)
      c.max_request_bytes = segments * 4096;
    break;
  }
  return c;
}

}  // namespace dp
