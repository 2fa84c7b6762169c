#include "model/pool.h"

#include <cstdio>

namespace dp {

bool HasMember(const Pool& pool, std::string_view drive_id) {
  if (drive_id.empty()) return false;
  for (const auto& vdev : pool.vdevs)
    for (const auto& m : vdev.members)
      if (m.drive_id == drive_id) return true;
  return false;
}

const Pool* BusyPoolWithDrive(const std::vector<Pool>& pools, std::string_view drive_id) {
  for (const auto& pool : pools)
    if (pool.Busy() && HasMember(pool, drive_id)) return &pool;
  return nullptr;
}

std::string DescribeBusy(const Pool& pool) {
  std::string what = pool.scan.function == "scrub" ? "scrubbing"
                     : pool.scan.function == "resilver" ? "resilvering"
                     : pool.scan.function.empty() ? "busy"
                                                  : pool.scan.function + " running";
  std::string out = "pool " + pool.name + " is " + what;
  if (pool.scan.percent) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.1f%% done)", *pool.scan.percent);
    out += buf;
  }
  return out;
}

}  // namespace dp
