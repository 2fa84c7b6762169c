// ToolPass: what every background pass over the drive tools holds (discovery,
// ZFS sampling): the configuration it was started with (a reload that changes
// tools.* or inventory.* needs a restart, config/reload_keys.cc), the runner
// of the tools, the store it writes to and the clock. The runner, store and
// clock are the daemon's and outlive the pass's owner.
#pragma once

#include "base/clock.h"
#include "base/command_runner.h"
#include "config/config.h"

namespace dp {

class Store;

struct ToolPass {
  const Config config;
  CommandRunner& runner;
  Store& store;
  const Clock& clock;
};

}  // namespace dp
