// Placeholder: replaced by the issue that delivers `diskpulse status`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunStatusCommand(const Args&) {
  std::fprintf(stderr, "diskpulse status: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
