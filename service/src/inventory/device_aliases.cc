#include "inventory/device_aliases.h"

namespace dp {

void DeviceAliases::Add(const std::string& alias_path, const std::string& kernel_name) {
  if (alias_path.empty() || kernel_name.empty()) return;
  to_kernel.emplace(alias_path, kernel_name);
  std::string rel = alias_path.rfind("/dev/", 0) == 0 ? alias_path.substr(5) : alias_path;
  to_kernel.emplace(rel, kernel_name);
  auto slash = rel.rfind('/');
  // zpool prints the full path (-P), the basename, or a FreeBSD label as "gpt/x".
  if (slash != std::string::npos) to_kernel.emplace(rel.substr(slash + 1), kernel_name);
}

}  // namespace dp
