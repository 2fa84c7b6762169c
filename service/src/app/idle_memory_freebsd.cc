#include "app/idle_memory.h"

namespace dp {

void LimitMallocArenas() {}

std::uint64_t TrimIdleMemory() { return 0; }

}  // namespace dp
