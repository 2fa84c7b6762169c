// `diskpulsed --show-schedule`: prints when every schedule will next run on
// every drive, pool and vdev it selects (PreviewSchedule, the scheduler's own
// arithmetic), and exits. Drives and pools come from a fresh inventory pass
// (no SMART read, nothing written); the last runs come from the database
// when it exists (it is opened, never created).
#pragma once

#include <string>

#include "config/config.h"

namespace dp {

// The preview text, or why it could not be made.
Result<std::string> ShowSchedule(const Config& config, int count = 3);

}  // namespace dp
