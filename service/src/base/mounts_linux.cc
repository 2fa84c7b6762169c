#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "base/mounts.h"

namespace dp {
namespace {

// mountinfo escapes blanks, tabs, newlines and backslashes as \ooo.
std::string Unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const std::string oct = s.substr(i + 1, 3);
      if (oct.find_first_not_of("01234567") == std::string::npos) {
        out += static_cast<char>(std::stoi(oct, nullptr, 8));
        i += 3;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

bool Holds(const std::string& mount_point, const std::string& path) {
  if (mount_point == "/") return true;
  return path == mount_point ||
         (path.size() > mount_point.size() && path.compare(0, mount_point.size(), mount_point) == 0 &&
          path[mount_point.size()] == '/');
}

}  // namespace

std::optional<MountInfo> MountOf(const std::string& path) {
  std::error_code ec;
  const std::string real = std::filesystem::canonical(path, ec).string();
  if (ec) return std::nullopt;
  std::ifstream in("/proc/self/mountinfo");
  if (!in) return std::nullopt;
  std::optional<MountInfo> best;
  std::string line;
  // "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw": the
  // mount point is the fifth field; type and source follow the " - ".
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    std::size_t dash = 0;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (f.size() < 5 || dash + 2 >= f.size()) continue;
    MountInfo m{f[dash + 1], Unescape(f[dash + 2]), Unescape(f[4])};
    // The deepest mount holding the path; of equal ones, the last (it covers the others).
    if (Holds(m.mount_point, real) && (!best || m.mount_point.size() >= best->mount_point.size()))
      best = std::move(m);
  }
  return best;
}

}  // namespace dp
