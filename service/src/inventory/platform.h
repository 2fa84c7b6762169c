// Which operating system's discovery to use: this machine's, or the one a
// replayed recording was made on (a FreeBSD NAS recording replays on a Linux
// laptop). HostPlatform() is implemented in platform_linux.cc /
// platform_freebsd.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace dp {

enum class Platform { kLinux, kFreeBSD };

Platform HostPlatform();
std::string_view PlatformName(Platform p);            // "linux" | "freebsd"
Result<Platform> ParsePlatform(std::string_view name);  // "" -> HostPlatform()

// The disks this machine's kernel lists now, by name ("ada0", "da3", "nvd0"):
// FreeBSD's kern.disks sysctl, a string the kernel keeps, so reading it sends
// nothing to any disk and wakes none. Unimplemented on Linux, where listing
// sysfs answers the same question.
Result<std::vector<std::string>> KernelDiskNames();

}  // namespace dp
