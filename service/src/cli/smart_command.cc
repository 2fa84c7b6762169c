// Placeholder: replaced by the issue that delivers `diskpulse smart`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunSmartCommand(const Args&) {
  std::fprintf(stderr, "diskpulse smart: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
