#include "inventory/platform.h"

namespace dp {

Platform HostPlatform() { return Platform::kFreeBSD; }

}  // namespace dp
