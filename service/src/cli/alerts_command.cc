// Placeholder: replaced by the issue that delivers `diskpulse alerts`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunAlertsCommand(const Args&) {
  std::fprintf(stderr, "diskpulse alerts: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
