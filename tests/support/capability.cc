#include "support/capability.h"

#include <cstdlib>
#include <cstring>

namespace dp::testing {

bool InCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::strcmp(ci, "true") == 0;
}

}  // namespace dp::testing
