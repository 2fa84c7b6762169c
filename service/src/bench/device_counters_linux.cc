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
  for (const char* rel : {"/queue/max_sectors_kb", "/../queue/max_sectors_kb"}) {
    std::ifstream q(base + rel);
    std::uint64_t kb = 0;
    if (q >> kb && kb > 0) {
      c.max_request_bytes = kb * 1024;
      break;
    }
  }
  return c;
}

}  // namespace dp
