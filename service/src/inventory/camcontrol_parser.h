// Parsers for FreeBSD camcontrol output: `camcontrol identify DEV` (ATA
// identity: model, serial, firmware, WWN, rotation rate, sector sizes) and
// `camcontrol devlist -v` (which controller driver each disk hangs off:
// ahcich -> SATA, mps/mpr/mrsas -> SAS HBA, umass -> USB, nvme -> NVMe).
// Pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace dp {

struct CamIdentify {
  std::string model, serial, firmware;
  std::optional<std::string> wwn;         // normalised, see NormaliseWwn
  std::optional<int> rotation_rpm;        // 0 for "non-rotating"
  std::optional<std::uint32_t> logical_sector_size, physical_sector_size;
  std::string protocol;                   // "ATA/ATAPI-8 SATA 3.x", "ACS-3 ATA SATA 3.x"
};

// Corrupt when no "device model" line is found.
Result<CamIdentify> ParseCamcontrolIdentify(std::string_view text);

// disk name ("ada0", "da3") -> controller instance ("ahcich0", "mps0",
// "umass-sim0", "nvme0").
std::map<std::string, std::string> ParseCamcontrolDevlist(std::string_view text);

// "sata" | "sas" | "usb" | "nvme" | "" from a controller instance name.
std::string TransportFromController(std::string_view controller);

}  // namespace dp
