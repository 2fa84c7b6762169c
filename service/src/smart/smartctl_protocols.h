// What each protocol's part of the smartctl parser offers the top level
// (smartctl_parser.cc), one file a protocol as smartmontools itself keeps
// them (ataprint, nvmeprint, scsiprint): where smartctl writes the same
// figure in several places, the top level asks the protocols in a fixed order
// and keeps the first answer, so that order lives in one function there.
// Every function reads only its own protocol's keys and may warn through the
// Reader. Internal to the smart module.
#pragma once

#include <cstdint>
#include <optional>

#include "model/smart_snapshot.h"
#include "smart/smartctl_json.h"

namespace dp::smartctl {

// ATA (smartctl_ata.cc): the attribute table, SCT status, the self-test logs
// and the self-test status in ata_smart_data.
void ParseAtaAttributes(const json& j, SmartSnapshot& s, Reader& r);
std::optional<int> AtaSctTemperature(const json& j, Reader& r);
// From attributes 194, then 190 (needs ParseAtaAttributes first).
std::optional<int> AtaAttributeTemperature(const SmartSnapshot& s, Reader& r);
std::optional<std::uint64_t> AtaPowerOnHours(const SmartSnapshot& s);
std::optional<std::uint64_t> AtaPowerCycles(const SmartSnapshot& s);
// Reallocated (where nothing set it before), pending, uncorrectable, timeout
// and CRC counts from their attributes.
void SetAtaErrorCounts(SmartSnapshot& s);
void ParseAtaSelfTestLog(const json& j, SmartSnapshot& s, Reader& r);
void ParseAtaSelfTestStatus(const json& j, SmartSnapshot& s, Reader& r);
void ParseAtaSelfTestDurations(const json& j, SmartSnapshot& s, Reader& r);

// NVMe (smartctl_nvme.cc): the SMART/health information log and the
// self-test log.
std::optional<int> NvmeTemperature(const json& j, Reader& r);
std::optional<std::uint64_t> NvmePowerOnHours(const json& j, Reader& r);
std::optional<std::uint64_t> NvmePowerCycles(const json& j, Reader& r);
void ParseNvmeHealth(const json& j, SmartSnapshot& s, Reader& r);
void ParseNvmeSelfTestLog(const json& j, SmartSnapshot& s, Reader& r);
void ParseNvmeSelfTestStatus(const json& j, SmartSnapshot& s, Reader& r);

// SCSI (smartctl_scsi.cc): the start-stop counter, the grown defect list and
// the self-test results.
std::optional<std::uint64_t> ScsiPowerCycles(const json& j, Reader& r);
void ParseScsiGrownDefects(const json& j, SmartSnapshot& s, Reader& r);
void ParseScsiSelfTestLog(const json& j, SmartSnapshot& s, Reader& r);
void ParseScsiSelfTestDuration(const json& j, SmartSnapshot& s, Reader& r);

}  // namespace dp::smartctl
