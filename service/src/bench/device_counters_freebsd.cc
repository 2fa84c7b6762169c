// FreeBSD: devstat(9) statistics from the kern.devstat.all sysctl, which is a
// generation number (long) followed by an array of struct devstat; the entry
// is found by device name + unit ("ada" + 0 for stats key "ada0"). Partitions
// (ada0p2) have no devstat entry of their own: the disk's is used.
// Not compiled on Linux: keep to documented interfaces (<sys/devicestat.h>).
#include <sys/devicestat.h>
#include <sys/sysctl.h>
#include <sys/types.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "bench/device_counters.h"

namespace dp {
namespace {

// "ada0p2" -> ("ada", 0)
bool SplitName(const std::string& key, std::string& name, int& unit) {
  std::size_t i = 0;
  while (i < key.size() && !std::isdigit(static_cast<unsigned char>(key[i]))) ++i;
  if (i == 0 || i == key.size()) return false;
  std::size_t j = i;
  while (j < key.size() && std::isdigit(static_cast<unsigned char>(key[j]))) ++j;
  name = key.substr(0, i);
  unit = std::stoi(key.substr(i, j - i));
  return true;
}

}  // namespace

Result<DeviceCounters> ReadDeviceCounters(const std::string& stats_key) {
  std::string name;
  int unit = 0;
  if (!SplitName(stats_key, name, unit)) return NotFound("no devstat name in '" + stats_key + "'");
  std::vector<char> buf;
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::size_t len = 0;
    if (::sysctlbyname("kern.devstat.all", nullptr, &len, nullptr, 0) != 0)
      return ErrnoStatus(errno, "sysctl kern.devstat.all");
    len += 8 * sizeof(struct devstat);  // room for devices appearing meanwhile
    buf.resize(len);
    if (::sysctlbyname("kern.devstat.all", buf.data(), &len, nullptr, 0) == 0) {
      buf.resize(len);
      break;
    }
    if (errno != ENOMEM) return ErrnoStatus(errno, "sysctl kern.devstat.all");
    buf.clear();
  }
  if (buf.size() < sizeof(long)) return NotFound("devstat: empty list");
  const std::size_t count = (buf.size() - sizeof(long)) / sizeof(struct devstat);
  for (std::size_t i = 0; i < count; ++i) {
    struct devstat ds;
    std::memcpy(&ds, buf.data() + sizeof(long) + i * sizeof(struct devstat), sizeof(ds));
    if (ds.unit_number != unit || name != ds.device_name) continue;
    DeviceCounters c;
    c.read_ios = ds.operations[DEVSTAT_READ];
    c.read_bytes = ds.bytes[DEVSTAT_READ];
    c.write_ios = ds.operations[DEVSTAT_WRITE];
    c.write_bytes = ds.bytes[DEVSTAT_WRITE];
    // devstat counts transactions as they complete; GEOM splits at MAXPHYS
    // (not known here: OwnIoMeter measures our reads' split instead).
    c.busy_ms = static_cast<std::uint64_t>(ds.busy_time.sec) * 1000 +
                ((ds.busy_time.frac >> 32) * 1000 >> 32);
    return c;
  }
  return NotFound("devstat: no device " + stats_key);
}

}  // namespace dp
