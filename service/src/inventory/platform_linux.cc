#include "inventory/platform.h"

namespace dp {

Platform HostPlatform() { return Platform::kLinux; }

}  // namespace dp
