// Placeholder: replaced by the issue that delivers `diskpulse pools`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunPoolsCommand(const Args&) {
  std::fprintf(stderr, "diskpulse pools: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
