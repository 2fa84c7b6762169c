// The file half of a `diskpulse record` recording: what Linux discovery
// reads from files rather than tools -- the sysfs attributes of every block
// device, the /dev/disk/* and /dev/mapper symlinks, udev's database entries
// and /proc/mdstat -- copied under DIR/sys, DIR/dev, DIR/udev and DIR/proc in
// the same layout, plus DIR/platform ("linux" or "freebsd"). With
// ConfigForReplay() pointing discovery at those copies, the recording
// replays on any machine. Only attribute files are copied: no device is
// opened.
#pragma once

#include <string>

#include "base/status.h"
#include "config/config.h"
#include "inventory/platform.h"

namespace dp {

Status SnapshotFileTrees(const InventoryConfig& live, Platform platform, const std::string& dir);

}  // namespace dp
