// Linux drive discovery from a sysfs tree: whole disks
// under SYSFS/block (partitions, loop, ram, zram, dm, md, optical and zvol
// devices are skipped unless listed in inventory.include), with model,
// serial, WWN and firmware from udev's database when it has them (the full
// ATA model string) and sysfs otherwise, size, logical/physical block size,
// rotational, transport (sata/sas/nvme/usb/virtual) and the host controller
// from the device path, and the stable /dev/disk/by-id names. Also gathers
// the aliases (by-id, by-partuuid, by-vdev, ..., partitions, dm slaves) that
// pool member mapping needs.
//
// It only reads files under the configured roots (sysfs_root, dev_root,
// udev_data_dir), so a test builds a tree and drives it, and a recording
// made by `diskpulse record` replays on any machine. Stateless.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "config/config.h"
#include "inventory/device_aliases.h"
#include "model/drive.h"

namespace dp {

struct DiscoveredDevices {
  std::vector<Drive> drives;        // sorted by name
  DeviceAliases aliases;
  std::vector<std::string> warnings;
};

// NotFound when SYSFS/block does not exist.
Result<DiscoveredDevices> DiscoverSysfsDrives(const InventoryConfig& config);

// True for names discovery skips unless included: loop*, ram*, zram*, dm-*,
// md*, sr*, fd*, nbd*, zd* (zvols), mtdblock*, rbd*, drbd*.
bool SkippedByDefault(const std::string& name);

// "ID_MODEL_ENC" style: "WDC\x20WD140EDFZ" -> "WDC WD140EDFZ".
std::string DecodeUdevEscapes(const std::string& s);

// Serial number from a SCSI VPD page 0x80 blob (4-byte header, then ASCII).
std::string SerialFromVpdPage80(const std::string& blob);

// What the sysfs device path says about the bus: "sata", "sas", "usb",
// "nvme", "virtual", "iscsi" or "".
std::string TransportFromSysfsPath(const std::string& device_path, const std::string& name);

// The PCI address of the host controller in a sysfs device path
// ("0000:00:1f.2"), or "".
std::string ControllerFromSysfsPath(const std::string& device_path);

}  // namespace dp
