// A recording (see base/replay_command_runner.h) of a Linux box with no
// drives of its own whose zpool has no JSON output and answers
// `zpool status -P -p` with the given texts in turn, the last one repeating:
// for daemon tests of pools without ZFS on the machine. Tests only.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace dp::testing {

Status WriteZpoolRecording(const std::string& dir, const std::vector<std::string>& status_texts);

}  // namespace dp::testing
