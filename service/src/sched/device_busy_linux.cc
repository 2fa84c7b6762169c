#include "sched/device_busy.h"

#include <fstream>

namespace dp {

Result<std::uint64_t> ReadDeviceBusyMillis(const std::string& stats_key) {
  if (stats_key.empty()) return Unsupported("no device counters known");
  std::ifstream in("/sys/dev/block/" + stats_key + "/stat");
  if (!in) return NotFound("no counters for device " + stats_key);
  // read_ios read_merges read_sectors read_ticks write_ios write_merges
  // write_sectors write_ticks in_flight io_ticks ...
  std::uint64_t v[10] = {};
  for (auto& x : v)
    if (!(in >> x)) return Corrupt("/sys/dev/block/" + stats_key + "/stat: too few fields");
  return v[9];
}

}  // namespace dp
