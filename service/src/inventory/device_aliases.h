// DeviceAliases: the other names of block devices on this machine, gathered
// by discovery (Linux: /dev/disk/by-* symlinks, partitions and device-mapper
// slaves from sysfs; FreeBSD: `glabel status` and geom partitions), used to
// map pool member paths to whole-disk drives. Plain value type.
#pragma once

#include <map>
#include <string>

namespace dp {

struct DeviceAliases {
  // alias -> kernel name: "/dev/disk/by-id/ata-X-part1" and "ata-X-part1" ->
  // "sda1"; "gpt/zfs0" and "/dev/gpt/zfs0" -> "ada0p3".
  std::map<std::string, std::string> to_kernel;
  // partition -> whole disk: "sda1" -> "sda", "ada0p3" -> "ada0".
  std::map<std::string, std::string> partition_parent;
  // device-mapper (dm-crypt/LUKS) or GELI holder -> the one device under it:
  // "dm-3" -> "sda2".
  std::map<std::string, std::string> holder_slave;

  // Registers alias under its full path and its basename (and, for /dev/X/Y
  // labels, "X/Y" as zpool prints them). The first registration of a name wins.
  void Add(const std::string& alias_path, const std::string& kernel_name);
};

}  // namespace dp
