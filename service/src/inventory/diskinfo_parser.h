// Parsing FreeBSD `diskinfo -v` (also the identity part of `-tv`/`-ctv`):
// "VALUE<TAB># description" lines, as printed by FreeBSD 9 to 14, with tabs
// or spaces, with or without the leading device line, and even flattened
// onto one line by a blog's formatting (the seeds). The seek/transfer
// sections of -t/-c are ignored here. Pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace dp {

struct DiskinfoInfo {
  std::string device;                     // "/dev/ada0" or "ada0"; "" when the line is missing
  std::optional<std::uint32_t> sector_size;
  std::optional<std::uint64_t> media_size;      // bytes
  std::optional<std::uint64_t> media_sectors;
  std::optional<std::uint32_t> stripe_size;
  std::string descr;                      // "ATA TOSHIBA MG07ACA1" (FreeBSD >= 11.2)
  std::string ident;                      // serial; "" when "(null)" or "(REMOVED)"
  std::string physical_path;
  std::optional<bool> trim;               // "TRIM/UNMAP support"
  std::optional<int> rotation_rpm;        // 0 solid state, nullopt "Unknown"/absent
  std::string zone_mode;                  // "Not_Zoned", ...
};

// Corrupt when no "# sectorsize" / "# mediasize in bytes" pair is found.
Result<DiskinfoInfo> ParseDiskinfo(std::string_view text);

}  // namespace dp
