// SmartSnapshot: SMART health of one drive at one moment, normalised across
// ATA, NVMe and SCSI. A field the device does not report is nullopt, never 0.
// Its JSON is the stable `diskpulse smart --json` contract.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

struct SmartAttribute {
  int id = 0;
  std::string name;
  std::optional<int> value;
  std::optional<int> worst;
  std::optional<int> thresh;
  std::optional<std::uint64_t> raw;   // raw.value (48-bit on ATA)
  std::string raw_string;             // raw.string as smartctl prints it
  std::string when_failed;            // "", "now", "past"
  bool prefailure = false;
};

// The number a person reads in smartctl's raw.string, which is what the
// attribute means where the 48-bit raw value packs several fields: 26 for
// "26 (Min/Max 18/41)" (raw 176094511130), 167 for "167 (Average 166)",
// 12345 for "12345h+06m+29.123s". The raw value itself when the string is
// empty or does not start with a decimal count ("0x0012...").
std::optional<std::uint64_t> RawShownNumber(const SmartAttribute& a);

struct SmartSelfTest {
  std::string type;                  // "short", "extended", "conveyance", ...
  std::string status;                // smartctl's status string
  std::optional<bool> passed;
  std::optional<std::uint64_t> lifetime_hours;
};

struct NvmeHealth {
  std::optional<std::uint64_t> critical_warning;
  std::optional<std::uint64_t> media_errors;
  std::optional<int> percentage_used;
  std::optional<int> available_spare;
  std::optional<int> available_spare_threshold;
  std::optional<std::uint64_t> unsafe_shutdowns;
  std::optional<std::uint64_t> num_err_log_entries;
};

struct SmartSnapshot {
  std::string protocol;                          // "ATA" | "NVMe" | "SCSI" | "" unknown
  std::string device_path;                       // smartctl's device.name, e.g. /dev/sda
  std::string device_type;                       // smartctl's device.type: sat, nvme, scsi, usbjmicron, sat+megaraid,14
  std::string model;
  std::string serial;
  std::optional<std::string> wwn;
  std::string firmware;
  std::optional<std::uint64_t> capacity_bytes;
  std::optional<int> rotation_rpm;               // 0 solid state
  std::optional<bool> health_passed;
  std::optional<int> temperature_c;
  std::optional<std::uint64_t> power_on_hours;
  std::optional<std::uint64_t> power_cycles;
  std::optional<std::uint64_t> reallocated_sectors;     // ATA 5; SCSI grown defect list
  std::optional<std::uint64_t> pending_sectors;         // ATA 197
  std::optional<std::uint64_t> offline_uncorrectable;   // ATA 198
  std::optional<std::uint64_t> reported_uncorrectable;  // ATA 187
  std::optional<std::uint64_t> command_timeouts;        // ATA 188
  std::optional<std::uint64_t> udma_crc_errors;         // ATA 199
  std::optional<NvmeHealth> nvme;
  std::vector<SmartAttribute> attributes;
  std::vector<SmartSelfTest> self_tests;         // newest first
  std::optional<int> smartctl_exit_status;
  std::vector<std::string> messages;
  // How long the drive says its self-tests take (ATA polling minutes); nullopt unknown.
  std::optional<int> short_test_minutes;
  std::optional<int> extended_test_minutes;
  bool self_test_running = false;                // a self-test was in progress at read time
  std::optional<int> self_test_remaining_percent;
  // Values diskpulse refused to believe (absurd temperature, raw value wider
  // than 48 bits, unknown protocol, ...): reported, never turned into numbers.
  std::vector<std::string> parse_warnings;
  std::string raw_json;                          // smartctl's output, kept whole
};

}  // namespace dp
