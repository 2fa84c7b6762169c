// The ATA part of smartctl's JSON (SATA drives, also behind USB and RAID
// bridges that pass ATA through): the attribute table and the counts taken
// from it, SCT status, the standard and extended self-test logs, and the
// self-test status and polling times. Separate from NVMe and SCSI because
// ATA's rules are its own (48-bit raw values, attribute ids whose meaning is
// a convention, status nibbles), as smartmontools keeps them in ataprint.
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <limits>

#include "smart/smartctl_parser.h"
#include "smart/smartctl_protocols.h"

namespace dp {
namespace smartctl {
namespace {

constexpr std::uint64_t kMax48 = (std::uint64_t{1} << 48) - 1;

// The leading decimal number of a raw string such as "29 (0 18 0 0 0)".
std::optional<std::uint64_t> LeadingNumber(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  std::size_t start = i;
  std::uint64_t v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    if (v > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
    ++i;
  }
  if (i == start) return std::nullopt;
  if (i < s.size() && s[i] != ' ' && s[i] != '(') return std::nullopt;  // "12h+34m", "0x.."
  return v;
}

const SmartAttribute* FindAttribute(const SmartSnapshot& s, int id) {
  for (const auto& a : s.attributes) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

std::optional<std::uint64_t> AttrRaw(const SmartSnapshot& s, int id) {
  const SmartAttribute* a = FindAttribute(s, id);
  return a ? a->raw : std::nullopt;
}

// ATA status value: upper nibble 0 = passed, 1-2 = aborted/interrupted by
// the host (no verdict), 3-8 = a failure, 15 = in progress.
std::optional<bool> AtaPassedFromValue(int value) {
  int nib = value >> 4;
  if (nib == 0) return true;
  if (nib >= 3 && nib <= 8) return false;
  return std::nullopt;
}

}  // namespace

void ParseAtaAttributes(const json& j, SmartSnapshot& s, Reader& r) {
  const json* table = r.Find(j, {"ata_smart_attributes", "table"});
  if (!table) return;
  if (!table->is_array()) {
    r.Warn("ata_smart_attributes.table: expected an array; ignored");
    return;
  }
  for (const auto& aj : *table) {
    if (!aj.is_object()) continue;
    auto id = r.Int(aj, {"id"}, 1, 255);
    if (!id) continue;
    SmartAttribute a;
    a.id = *id;
    a.name = r.Str(aj, {"name"});
    a.value = r.Int(aj, {"value"}, 0, 255);
    a.worst = r.Int(aj, {"worst"}, 0, 255);
    a.thresh = r.Int(aj, {"thresh"}, 0, 255);
    a.raw_string = r.Str(aj, {"raw", "string"});
    if (const json* raw = r.Find(aj, {"raw", "value"})) {
      if (raw->is_number_unsigned() && raw->get<std::uint64_t>() <= kMax48) {
        a.raw = raw->get<std::uint64_t>();
      } else {
        r.Warn("attribute " + std::to_string(a.id) + " raw value is not a 48-bit count (" +
               raw->dump() + "); ignored");
      }
    }
    std::string wf = r.Str(aj, {"when_failed"});
    if (wf == "now" || wf == "past") {
      a.when_failed = wf;
    } else if (!wf.empty() && wf != "-") {
      r.Warn("attribute " + std::to_string(a.id) + " when_failed '" + wf + "' not understood");
    }
    a.prefailure = r.Bool(aj, {"flags", "prefailure"}).value_or(false);
    s.attributes.push_back(std::move(a));
  }
}

std::optional<int> AtaSctTemperature(const json& j, Reader& r) {
  return CheckedCelsius(r.Int(j, {"ata_sct_status", "temperature", "current"}, -1000, 1000),
                        "ata_sct_status.temperature.current", r);
}

std::optional<int> AtaAttributeTemperature(const SmartSnapshot& s, Reader& r) {
  // The raw strings: "29 (Min/Max 18/41)" is 29 degrees.
  for (int id : {194, 190}) {
    if (const SmartAttribute* a = FindAttribute(s, id)) {
      if (auto t = LeadingNumber(a->raw_string); t && *t < 1000) {
        auto c = CheckedCelsius(static_cast<int>(*t), id == 194 ? "attribute 194" : "attribute 190", r);
        if (c) return c;
      }
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> AtaPowerOnHours(const SmartSnapshot& s) {
  // smartctl names attribute 9 by its unit where its drive database knows it
  // (Power_On_Minutes, Power_On_Half_Minutes, ...); only hours are taken.
  const SmartAttribute* a = FindAttribute(s, 9);
  if (a && a->name == "Power_On_Hours") return LeadingNumber(a->raw_string);
  return std::nullopt;
}

std::optional<std::uint64_t> AtaPowerCycles(const SmartSnapshot& s) {
  const SmartAttribute* a = FindAttribute(s, 12);
  if (a && a->name == "Power_Cycle_Count") return a->raw;
  return std::nullopt;
}

void SetAtaErrorCounts(SmartSnapshot& s) {
  if (!s.reallocated_sectors) s.reallocated_sectors = AttrRaw(s, 5);
  s.pending_sectors = AttrRaw(s, 197);
  s.offline_uncorrectable = AttrRaw(s, 198);
  s.reported_uncorrectable = AttrRaw(s, 187);
  s.command_timeouts = AttrRaw(s, 188);
  s.udma_crc_errors = AttrRaw(s, 199);
}

void ParseAtaSelfTestLog(const json& j, SmartSnapshot& s, Reader& r) {
  // The extended (GP) log when -x read it, else the standard one.
  const json* table = r.Find(j, {"ata_smart_self_test_log", "extended", "table"});
  if (!table) table = r.Find(j, {"ata_smart_self_test_log", "standard", "table"});
  if (!table || !table->is_array()) return;
  for (const auto& tj : *table) {
    if (!tj.is_object()) continue;
    SmartSelfTest t;
    t.type = NormaliseTestType(r.Str(tj, {"type", "string"}));
    t.status = r.Str(tj, {"status", "string"});
    // The status value decides: smartctl also writes "passed": true for a
    // test still in progress (value 0xF?) or aborted by the host.
    if (auto v = r.Int(tj, {"status", "value"}, 0, 255)) {
      t.passed = AtaPassedFromValue(*v);
    } else {
      t.passed = r.Bool(tj, {"status", "passed"});
    }
    t.lifetime_hours = r.U64(tj, {"lifetime_hours"});
    s.self_tests.push_back(std::move(t));
  }
}

void ParseAtaSelfTestStatus(const json& j, SmartSnapshot& s, Reader& r) {
  // Upper nibble 0xF: a test is running; the lower one counts the tenths
  // still to do when smartctl gives no remaining_percent.
  if (auto v = r.Int(j, {"ata_smart_data", "self_test", "status", "value"}, 0, 255)) {
    if ((*v >> 4) == 0xF) {
      s.self_test_running = true;
      s.self_test_remaining_percent =
          r.Int(j, {"ata_smart_data", "self_test", "status", "remaining_percent"}, 0, 100);
      if (!s.self_test_remaining_percent) s.self_test_remaining_percent = (*v & 0xF) * 10;
    }
  }
}

void ParseAtaSelfTestDurations(const json& j, SmartSnapshot& s, Reader& r) {
  s.short_test_minutes = r.Int(j, {"ata_smart_data", "self_test", "polling_minutes", "short"}, 0, 100000);
  s.extended_test_minutes =
      r.Int(j, {"ata_smart_data", "self_test", "polling_minutes", "extended"}, 0, 100000);
}

}  // namespace smartctl

std::optional<std::string> FormatAtaWwn(std::uint64_t naa, std::uint64_t oui, std::uint64_t id) {
  if (naa > 0xF || oui > 0xFFFFFF || id > 0xFFFFFFFFFULL) return std::nullopt;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%01" PRIx64 "%06" PRIx64 "%09" PRIx64, naa, oui, id);
  return std::string(buf);
}

}  // namespace dp
