// The SCSI part of smartctl's JSON (SAS drives, and some USB and iSCSI
// devices): the start-stop cycle counter, the grown defect list, the
// self-test results (scsi_self_test_0 .. _19) and the extended test's
// duration, and the logical unit id as a WWN. Separate from ATA and NVMe
// because SCSI reports these in log pages of its own with its own result
// codes, as smartmontools keeps them in scsiprint.
#include <cctype>
#include <string>

#include "smart/smartctl_parser.h"
#include "smart/smartctl_protocols.h"

namespace dp {
namespace smartctl {

std::optional<std::uint64_t> ScsiPowerCycles(const json& j, Reader& r) {
  return r.U64(j, {"scsi_start_stop_cycle_counter", "accumulated_start_stop_cycles"});
}

void ParseScsiGrownDefects(const json& j, SmartSnapshot& s, Reader& r) {
  // The grown defect list is what SCSI has for ATA's reallocated sectors.
  if (s.protocol == "SCSI" || r.Find(j, {"scsi_grown_defect_list"})) {
    s.reallocated_sectors = r.U64(j, {"scsi_grown_defect_list"});
  }
}

void ParseScsiSelfTestLog(const json& j, SmartSnapshot& s, Reader& r) {
  // scsi_self_test_0 .. _19, newest first.
  for (int i = 0; i < 20; ++i) {
    std::string key = "scsi_self_test_" + std::to_string(i);
    auto it = j.find(key);
    if (it == j.end() || !it->is_object()) continue;
    SmartSelfTest t;
    t.type = NormaliseTestType(r.Str(*it, {"code", "string"}));
    t.status = r.Str(*it, {"result", "string"});
    auto result = r.Int(*it, {"result", "value"}, 0, 15);
    if (result) {
      if (*result == 0) t.passed = true;
      else if (*result >= 3 && *result <= 7) t.passed = false;
      else if (*result == 15) s.self_test_running = true;
    }
    t.lifetime_hours = r.U64(*it, {"power_on_time", "hours"});
    s.self_tests.push_back(std::move(t));
  }
}

void ParseScsiSelfTestDuration(const json& j, SmartSnapshot& s, Reader& r) {
  if (s.extended_test_minutes) return;
  if (auto secs = r.Int(j, {"scsi_extended_self_test_seconds"}, 0, 100'000'000)) {
    s.extended_test_minutes = (*secs + 59) / 60;
  }
}

}  // namespace smartctl

std::optional<std::string> NormaliseScsiWwn(std::string_view lu) {
  std::string s(lu);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s = s.substr(2);
  if (s.size() != 16 && s.size() != 32) return std::nullopt;
  for (char& c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  // NAA 2, 3 and 5 names are 8 bytes; NAA 6 is 16.
  char naa = s[0];
  if (s.size() == 16 && naa != '2' && naa != '3' && naa != '5') return std::nullopt;
  if (s.size() == 32 && naa != '6') return std::nullopt;
  return s;
}

}  // namespace dp
