// Placeholder: replaced by the issue that delivers `diskpulse run`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunRunCommand(const Args&) {
  std::fprintf(stderr, "diskpulse run: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
