#include "inventory/platform.h"

#include <sys/types.h>
#include <sys/sysctl.h>

#include <cerrno>
#include <cstring>
#include <sstream>

namespace dp {

Platform HostPlatform() { return Platform::kFreeBSD; }

Result<std::vector<std::string>> KernelDiskNames() {
  // The list can grow between the two calls (a disk attached): retry a few
  // times with the larger size rather than read a cut-off name.
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::size_t len = 0;
    if (::sysctlbyname("kern.disks", nullptr, &len, nullptr, 0) != 0)
      return ErrnoStatus(errno, "sysctl kern.disks");
    std::string buf(len + 64, '\0');
    len = buf.size();
    if (::sysctlbyname("kern.disks", buf.data(), &len, nullptr, 0) != 0) {
      if (errno == ENOMEM) continue;
      return ErrnoStatus(errno, "sysctl kern.disks");
    }
    buf.resize(::strnlen(buf.data(), len));
    std::vector<std::string> names;
    std::istringstream in(buf);
    for (std::string name; in >> name;) names.push_back(name);
    return names;
  }
  return Internal("sysctl kern.disks: the list kept changing while it was read");
}

}  // namespace dp
