// Parsers for FreeBSD GEOM tool output: `geom disk list` (the disks and
// their identity) and `glabel status` (labels such as gpt/zfs0, gptid/...,
// diskid/DISK-... and the provider each names). Pure functions, compiled
// and tested on every platform; only the discovery that runs the tools is
// FreeBSD business.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace dp {

struct GeomDisk {
  std::string name;                       // "ada0"
  std::uint64_t media_size = 0;           // bytes
  std::uint32_t sector_size = 0;
  std::uint32_t stripe_size = 0;          // 4096 on 512e drives
  std::string descr;                      // "WDC WD40EFRX-68N32N0", "ATA TOSHIBA MG07ACA1"
  std::string ident;                      // serial number
  std::string lunid;                      // WWN when the disk reports one
  std::optional<int> rotation_rpm;        // 0 solid state; nullopt "unknown"
};

// Corrupt when the text has no "Geom name:" block at all.
Result<std::vector<GeomDisk>> ParseGeomDiskList(std::string_view text);

struct GlabelEntry {
  std::string label;      // "gpt/zfs0", "gptid/1b0a...", "diskid/DISK-WD-WCC4N0XXXX"
  std::string status;     // "N/A"
  std::string component;  // "ada0p3"
};

std::vector<GlabelEntry> ParseGlabelStatus(std::string_view text);

}  // namespace dp
