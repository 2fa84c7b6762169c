// Small pure helpers shared by the Linux and FreeBSD inventory: WWN
// normalisation and model strings, so a drive gets the same identity from
// sysfs/udev, geom/camcontrol and smartctl.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dp {

// "0x5000C500A1B2C3D4", "naa.5000c500a1b2c3d4", "wwn-0x5000...", "5000..."
// -> "5000c500a1b2c3d4". Only NAA names (16 hex digits starting 2/3/5, or 32
// starting 6) are WWNs; EUI-64, t10 vendor ids and garbage give nullopt.
std::optional<std::string> NormaliseWwn(std::string_view text);

// Trims blanks at both ends; inner spacing is kept, as smartctl keeps it.
std::string TrimField(std::string_view s);

// SCSI INQUIRY vendor + product as one model string: "ATA" is the SAT
// layer's vendor, not the drive's, so it is dropped ("ATA TOSHIBA MG07ACA1"
// -> "TOSHIBA MG07ACA1"); other vendors are kept ("SEAGATE ST4000NM0043").
std::string ModelFromVendorProduct(std::string_view vendor, std::string_view product);

}  // namespace dp
