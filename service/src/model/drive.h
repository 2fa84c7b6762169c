// Drive: one physical disk as diskpulse knows it. Plain value type.
// Its key is a stable identity (WWN, else model+serial), never the /dev name,
// which changes across boots.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

struct Drive {
  std::string id;            // stable identity, see MakeDriveId()
  std::string dev_path;      // current node, e.g. /dev/sda or /dev/ada0 (may change)
  std::string name;          // short name for people: "sda", or a configured target name
  std::string model;
  std::string serial;
  std::optional<std::string> wwn;       // lower-case hex without separators
  std::string firmware;
  std::uint64_t size_bytes = 0;
  std::uint32_t logical_block_size = 512;
  std::uint32_t physical_block_size = 512;
  std::optional<bool> rotational;       // nullopt: unknown
  std::optional<int> rotation_rpm;      // 0 for solid state
  std::string transport;                // "sata", "sas", "nvme", "usb", "virtual", "" unknown
  std::vector<std::string> stable_paths;  // /dev/disk/by-id/..., /dev/gpt/..., gptid
  bool present = true;                  // false: known from history, not seen now
  bool explicit_target = false;         // listed in config "targets" rather than discovered
  std::string controller;               // the host adapter it hangs off (e.g. PCI address
                                        // "0000:00:1f.2"); "" unknown. The scheduler caps
                                        // concurrent tests per controller.
  std::int64_t first_seen = 0;          // unix seconds; kept by the store (0: never stored)
  std::int64_t last_seen = 0;
  std::optional<std::int64_t> missing_since;  // kept by the store: when discovery last lost it
  // Kept by the store: when the owner said the drive is gone for good
  // (`diskpulse forget`), and why. A forgotten drive raises no "missing"
  // alert; it is watched again if it ever comes back.
  std::optional<std::int64_t> forgotten_at;
  std::string forgotten_reason;
};

// "wwn-5000c500a1b2c3d4" when a WWN is known, else "MODEL_SERIAL" with spaces
// folded to '_'; when neither is known, "path-<dev_path>" (unstable, flagged so).
std::string MakeDriveId(const std::optional<std::string>& wwn, const std::string& model,
                        const std::string& serial, const std::string& dev_path);

// The device's file name: "sda" of "/dev/sda" ("" for an empty path).
std::string DeviceBasename(const std::string& dev_path);

// Whether a user means `drive` by `ref`: its id, name, /dev path or device
// basename (schedules' drive lists, the API's {id}, the CLI's arguments).
bool IsDriveRef(const Drive& drive, std::string_view ref);

}  // namespace dp
