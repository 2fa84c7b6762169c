// FreeBSD has no io_uring; auto is always pread, so nothing is throttled in a
// way that matters to the choice.
#include "bench/engine_choice.h"

namespace dp::internal {

bool ReadsThrottled(const std::string&) { return false; }

}  // namespace dp::internal
