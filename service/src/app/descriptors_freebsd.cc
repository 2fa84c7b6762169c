#include <unistd.h>

#include "app/descriptors.h"

namespace dp {

void CloseDescriptorsFrom(int lowest) { ::closefrom(lowest); }

}  // namespace dp
