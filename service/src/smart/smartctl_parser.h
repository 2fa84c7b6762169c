// Parsing smartctl's JSON (`smartctl -x -j`, also -a/-i/-H/-A subsets, any
// smartctl >= 7.0 and the experimental 6.7 JSON) into a normalised
// SmartSnapshot: ATA attributes and self-test log, NVMe health and self-test
// log, SCSI grown defects and self-test results, USB bridges, old versions
// with missing keys. A value smartctl does not report, or reports in a shape
// or range we do not believe (a string where a number belongs, a raw value
// wider than 48 bits, 0 or 300 degrees), is nullopt plus a parse warning,
// never a guess. Pure functions.
// The rules of each protocol are in smartctl_ata.cc, smartctl_nvme.cc and
// smartctl_scsi.cc; smartctl_parser.cc has what all devices share and the
// order in which the protocols are asked for a figure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "model/smart_snapshot.h"

namespace dp {

// One smartctl run, understood.
struct SmartReading {
  // The device was in standby/sleep and `-n standby` kept smartctl from
  // waking it: not an error, and no snapshot. skip_reason says so.
  bool asleep = false;
  std::string skip_reason;  // "skipped: asleep (Device is in STANDBY mode, exit(2))"
  SmartSnapshot snapshot;   // meaningful when !asleep
};

// stdout_text: smartctl's stdout; exit_code: the process exit code when known
// (smartctl also records it in the JSON). Errors:
//  - Unsupported: not JSON but a smartctl < 7 banner ("smartctl 6.6 cannot
//    write JSON; diskpulse needs smartctl 7.0 or newer (smartmontools)");
//  - Corrupt: empty, not JSON, truncated JSON, not an object;
//  - InvalidArgument: `smartctl --scan` output instead of a device report, or
//    smartctl rejected its command line;
//  - PermissionDenied / Unavailable: smartctl could not open the device (the
//    message carries smartctl's own words).
Result<SmartReading> ParseSmartctlOutput(std::string_view stdout_text,
                                         std::optional<int> exit_code = std::nullopt);

// "5000cca37fcf6ea8" from smartctl's ATA {"naa","oui","id"} triple;
// nullopt when a part is missing or out of range.
std::optional<std::string> FormatAtaWwn(std::uint64_t naa, std::uint64_t oui, std::uint64_t id);

// A SCSI logical unit id ("0x5000c500a1b2c3d4") as a WWN: lower-case hex
// without 0x when it is a well-formed NAA name (16 or 32 hex digits).
std::optional<std::string> NormaliseScsiWwn(std::string_view logical_unit_id);

}  // namespace dp
