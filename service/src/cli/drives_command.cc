// Placeholder: replaced by the issue that delivers `diskpulse drives`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunDrivesCommand(const Args&) {
  std::fprintf(stderr, "diskpulse drives: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
