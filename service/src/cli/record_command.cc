// Placeholder: replaced by the issue that delivers `diskpulse record`.
#include <cstdio>

#include "cli/commands.h"

namespace dp::cli {

int RunRecordCommand(const Args&) {
  std::fprintf(stderr, "diskpulse record: not available in this build yet\n");
  return 2;
}

}  // namespace dp::cli
