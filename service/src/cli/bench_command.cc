// Placeholder: replaced by the issue that delivers `diskpulse bench`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunBenchCommand(const Args&) {
  std::fprintf(stderr, "diskpulse bench: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
