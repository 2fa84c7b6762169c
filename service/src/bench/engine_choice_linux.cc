// Linux: is this process in a cgroup that throttles reads on a device?
// cgroup v1: blkio.throttle.read_bps_device / read_iops_device ("MAJ:MIN N"
// lines) in the process's blkio cgroup or any ancestor; cgroup v2: io.max
// "MAJ:MIN rbps=N riops=N".
#include <fstream>
#include <sstream>
#include <string>

#include "bench/engine_choice.h"

namespace dp::internal {
namespace {

bool FileHasLimit(const std::string& file, const std::string& key, bool v2) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string dev;
    ls >> dev;
    if (dev != key) continue;
    if (!v2) return true;  // v1 lists only devices that have a limit
    std::string field;
    while (ls >> field)
      if ((field.rfind("rbps=", 0) == 0 && field != "rbps=max") ||
          (field.rfind("riops=", 0) == 0 && field != "riops=max"))
        return true;
  }
  return false;
}

// Checks `cgroup_path` and its ancestors under `root`.
bool AnyAncestorLimited(const std::string& root, std::string cgroup_path, const char* file,
                        const std::string& key, bool v2) {
  for (;;) {
    if (FileHasLimit(root + cgroup_path + "/" + file, key, v2)) return true;
    if (cgroup_path.empty() || cgroup_path == "/") return false;
    auto slash = cgroup_path.rfind('/');
    cgroup_path = slash == std::string::npos || slash == 0 ? "" : cgroup_path.substr(0, slash);
  }
}

}  // namespace

bool ReadsThrottled(const std::string& stats_key) {
  if (stats_key.empty()) return false;
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // "7:blkio:/path" (v1) or "0::/path" (v2)
    auto a = line.find(':');
    auto b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    std::string controllers = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    if (path == "/") path = "";
    bool v1_blkio = false;
    std::istringstream cs(controllers);
    std::string c;
    while (std::getline(cs, c, ','))
      if (c == "blkio") v1_blkio = true;
    if (v1_blkio) {
      for (const char* f : {"blkio.throttle.read_bps_device", "blkio.throttle.read_iops_device"})
        if (AnyAncestorLimited("/sys/fs/cgroup/blkio", path, f, stats_key, false)) return true;
    }
    if (controllers.empty() && line.rfind("0::", 0) == 0 &&
        AnyAncestorLimited("/sys/fs/cgroup", path, "io.max", stats_key, true))
      return true;
  }
  return false;
}

}  // namespace dp::internal
