#include "inventory/platform.h"

#include <string>

namespace dp {

std::string_view PlatformName(Platform p) { return p == Platform::kFreeBSD ? "freebsd" : "linux"; }

Result<Platform> ParsePlatform(std::string_view name) {
  if (name.empty()) return HostPlatform();
  if (name == "linux") return Platform::kLinux;
  if (name == "freebsd") return Platform::kFreeBSD;
  return InvalidArgument("unknown platform '" + std::string(name) + "' (linux or freebsd)");
}

}  // namespace dp
