#include "inventory/platform.h"

namespace dp {

Platform HostPlatform() { return Platform::kLinux; }

Result<std::vector<std::string>> KernelDiskNames() {
  return Unsupported("kern.disks is FreeBSD's; Linux lists sysfs instead");
}

}  // namespace dp
