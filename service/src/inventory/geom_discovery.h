// FreeBSD drive discovery through the CommandRunner:
// `geom disk list` for the disks and their identity, `camcontrol devlist -v`
// for the bus, `camcontrol identify` for ATA firmware and the full model,
// `geom label status` for gpt/gptid/diskid aliases. When geom cannot be run
// it falls back to `sysctl -n kern.disks` + `diskinfo -v`. Only tools run
// through the runner, so the same code replays a FreeBSD recording on any
// machine. Stateless.
#pragma once

#include "base/command_runner.h"
#include "config/config.h"
#include "inventory/sysfs_discovery.h"

namespace dp {

Result<DiscoveredDevices> DiscoverGeomDrives(CommandRunner& runner, const ToolsConfig& tools,
                                             const InventoryConfig& config);

}  // namespace dp
