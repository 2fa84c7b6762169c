// Which operating system's discovery to use: this machine's, or the one a
// replayed recording was made on (a FreeBSD NAS recording replays on a Linux
// laptop). HostPlatform() is implemented in platform_linux.cc /
// platform_freebsd.cc.
#pragma once

#include <string_view>

#include "base/result.h"

namespace dp {

enum class Platform { kLinux, kFreeBSD };

Platform HostPlatform();
std::string_view PlatformName(Platform p);            // "linux" | "freebsd"
Result<Platform> ParsePlatform(std::string_view name);  // "" -> HostPlatform()

}  // namespace dp
