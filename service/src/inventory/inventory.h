// Inventory: what discovery found on this machine (or in a replayed
// recording) -- drives, pools with members mapped to drives, the aliases used
// for the mapping, and warnings worth showing (unmappable members, tools that
// failed). The entry points the CLI and the scheduler's discovery call.
// Stateless functions; thread-safe if the runner is.
#pragma once

#include <string>
#include <vector>

#include "base/command_runner.h"
#include "config/config.h"
#include "inventory/device_aliases.h"
#include "inventory/platform.h"
#include "inventory/sysfs_discovery.h"
#include "model/drive.h"
#include "model/pool.h"

namespace dp {

struct Inventory {
  Platform platform = Platform::kLinux;
  std::vector<Drive> drives;
  DeviceAliases aliases;
  std::vector<Pool> pools;            // member drive_ids filled where they map
  Status pools_status;                // not OK: pools could not be read (zpool hung, ...)
  std::vector<std::string> warnings;
};

// Drives, by the discovery of config.inventory.platform ("" = this machine):
// Linux reads the sysfs tree, FreeBSD runs geom/camcontrol. Targets from
// config.targets are included and marked explicit_target.
Result<DiscoveredDevices> DiscoverDrives(const Config& config, CommandRunner& runner);

// The names of the disks present now ("sda", "ada0"; a target discovery
// does not list, by its node's name), found without a word to any disk, so
// no sleeping disk is woken: Linux lists sysfs by DiscoverDrives' own rules;
// FreeBSD reads kern.disks, leaving out inventory.exclude and what geom
// discovery skips unless included (cd*, md*, zvol*, ram*). A FreeBSD
// recording replayed on another system runs its recorded geom discovery.
// For the presence pass between discovery passes; sorted.
Result<std::vector<std::string>> ListPresentDisks(const Config& config, CommandRunner& runner);

// ZFS pools from `zpool status -j --json-int -P` when the installed zpool
// speaks JSON, else `zpool status -P -p` (or without -p for zpools that lack
// it); on Linux also md arrays from PROC/mdstat. No zpool installed, or no
// ZFS loaded, is no pools (with a warning), not an error.
Result<std::vector<Pool>> ReadPools(const Config& config, CommandRunner& runner,
                                    std::vector<std::string>* warnings);

// Both, members mapped to drives. Fails only when drives cannot be
// discovered; a pool read failure is kept in pools_status.
Result<Inventory> ReadInventory(const Config& config, CommandRunner& runner);

// The config to use for replaying the recording in dir: tools are answered
// by the ReplayCommandRunner, and the Linux file trees (sys/, dev/, udev/,
// proc/) and the platform come from the recording.
Config ConfigForReplay(const Config& config, const std::string& dir);

}  // namespace dp
