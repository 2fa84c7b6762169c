#include "smart/smartctl_parser.h"

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <regex>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "smart/smartctl_exit_status.h"

namespace dp {
namespace {

using nlohmann::json;

constexpr std::uint64_t kMax48 = (std::uint64_t{1} << 48) - 1;
// Plausible drive temperatures. Drives stop working long before either end;
// values outside (virtual disks say 0, broken bridges say 255) are not believed.
constexpr int kMinCelsius = 1;
constexpr int kMaxCelsius = 120;

// Walks the document collecting typed values and warnings about values that
// are present but not of the expected type or range.
class Reader {
 public:
  explicit Reader(std::vector<std::string>& warnings) : warnings_(warnings) {}

  const json* Find(const json& j, std::initializer_list<const char*> path) {
    const json* cur = &j;
    for (const char* key : path) {
      if (!cur->is_object()) return nullptr;
      auto it = cur->find(key);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    }
    return cur;
  }

  std::optional<std::uint64_t> U64(const json& j, std::initializer_list<const char*> path,
                                   std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    const json* v = Find(j, path);
    if (!v || v->is_null()) return std::nullopt;
    if (v->is_number_unsigned()) {
      auto x = v->get<std::uint64_t>();
      if (x > max) {
        Warn(PathName(path) + ": " + std::to_string(x) + " is out of range; ignored");
        return std::nullopt;
      }
      return x;
    }
    if (v->is_number_integer()) {
      Warn(PathName(path) + ": negative value " + std::to_string(v->get<std::int64_t>()) +
           "; ignored");
      return std::nullopt;
    }
    Warn(PathName(path) + ": expected a non-negative integer, got " + std::string(v->type_name()) +
         "; ignored");
    return std::nullopt;
  }

  std::optional<int> Int(const json& j, std::initializer_list<const char*> path, int lo, int hi) {
    const json* v = Find(j, path);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_number_integer()) {
      Warn(PathName(path) + ": expected an integer, got " + std::string(v->type_name()) +
           "; ignored");
      return std::nullopt;
    }
    auto x = v->get<std::int64_t>();
    if (x < lo || x > hi) {
      Warn(PathName(path) + ": " + std::to_string(x) + " is out of range; ignored");
      return std::nullopt;
    }
    return static_cast<int>(x);
  }

  std::optional<bool> Bool(const json& j, std::initializer_list<const char*> path) {
    const json* v = Find(j, path);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_boolean()) {
      Warn(PathName(path) + ": expected true/false, got " + std::string(v->type_name()) +
           "; ignored");
      return std::nullopt;
    }
    return v->get<bool>();
  }

  std::string Str(const json& j, std::initializer_list<const char*> path) {
    const json* v = Find(j, path);
    if (!v || v->is_null()) return "";
    if (!v->is_string()) {
      Warn(PathName(path) + ": expected a string, got " + std::string(v->type_name()) +
           "; ignored");
      return "";
    }
    return Trim(v->get<std::string>());
  }

  void Warn(std::string w) { warnings_.push_back(std::move(w)); }

 private:
  static std::string PathName(std::initializer_list<const char*> path) {
    std::string out;
    for (const char* p : path) {
      if (!out.empty()) out += '.';
      out += p;
    }
    return out;
  }
  std::vector<std::string>& warnings_;
};

std::optional<int> CheckedCelsius(std::optional<int> t, const char* source, Reader& r) {
  if (!t) return std::nullopt;
  if (*t < kMinCelsius || *t > kMaxCelsius) {
    r.Warn(std::string(source) + ": " + std::to_string(*t) +
           " degrees C is not a believable drive temperature; reported as unknown");
    return std::nullopt;
  }
  return t;
}

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

std::string NormaliseTestType(std::string s) {
  const std::string lower = AsciiLower(s);
  if (lower.find("short") != std::string::npos) return "short";
  if (lower.find("extended") != std::string::npos || lower.find("long") != std::string::npos) {
    return "extended";
  }
  if (lower.find("conveyance") != std::string::npos) return "conveyance";
  if (lower.find("selective") != std::string::npos) return "selective";
  if (lower.find("offline") != std::string::npos) return "offline";
  if (lower.find("vendor") != std::string::npos) return "vendor";
  return lower;
}

bool MessageSaysAsleep(const std::string& m) {
  // smartctl -n standby: "Device is in STANDBY mode, exit(2)", "... in SLEEP
  // mode ...", "... in STANDBY (OS) mode ...", "... in STANDBY_Y mode ...".
  static const std::regex kAsleep(R"(Device is in (STANDBY|SLEEP|IDLE)\S*( \([^)]*\))? mode)",
                                  std::regex::icase);
  return std::regex_search(m, kAsleep);
}

void ParseIdentity(const json& j, SmartSnapshot& s, Reader& r) {
  s.device_path = r.Str(j, {"device", "name"});
  s.device_type = r.Str(j, {"device", "type"});
  std::string proto = r.Str(j, {"device", "protocol"});
  if (proto == "ATA" || proto == "NVMe" || proto == "SCSI") {
    s.protocol = proto;
  } else if (!proto.empty()) {
    r.Warn("device.protocol: unknown protocol '" + proto + "'; reported as unknown");
  } else if (r.Find(j, {"nvme_smart_health_information_log"})) {
    s.protocol = "NVMe";
  } else if (r.Find(j, {"ata_smart_attributes"}) || r.Find(j, {"ata_version"})) {
    s.protocol = "ATA";
  } else if (r.Find(j, {"scsi_version"}) || r.Find(j, {"scsi_grown_defect_list"}) ||
             r.Find(j, {"scsi_model_name"})) {
    s.protocol = "SCSI";
  }

  s.model = r.Str(j, {"model_name"});
  if (s.model.empty()) s.model = r.Str(j, {"scsi_model_name"});
  if (s.model.empty()) {
    std::string vendor = r.Str(j, {"vendor"}), product = r.Str(j, {"product"});
    if (vendor.empty()) vendor = r.Str(j, {"scsi_vendor"});
    if (product.empty()) product = r.Str(j, {"scsi_product"});
    s.model = Trim(vendor + " " + product);
  }
  s.serial = r.Str(j, {"serial_number"});
  s.firmware = r.Str(j, {"firmware_version"});
  if (s.firmware.empty()) s.firmware = r.Str(j, {"revision"});
  if (s.firmware.empty()) s.firmware = r.Str(j, {"scsi_revision"});

  if (const json* w = r.Find(j, {"wwn"})) {
    auto naa = r.U64(*w, {"naa"}), oui = r.U64(*w, {"oui"}), id = r.U64(*w, {"id"});
    if (naa && oui && id) s.wwn = FormatAtaWwn(*naa, *oui, *id);
    if (!s.wwn) r.Warn("wwn: incomplete or out of range; reported as unknown");
  } else if (std::string lu = r.Str(j, {"logical_unit_id"}); !lu.empty()) {
    s.wwn = NormaliseScsiWwn(lu);
    if (!s.wwn) r.Warn("logical_unit_id: '" + lu + "' is not a NAA name; WWN unknown");
  }

  // 0 bytes is what smartctl says when it could not read the capacity.
  s.capacity_bytes = r.U64(j, {"user_capacity", "bytes"});
  if (!s.capacity_bytes) s.capacity_bytes = r.U64(j, {"nvme_total_capacity"});
  if (s.capacity_bytes && *s.capacity_bytes == 0) s.capacity_bytes.reset();

  if (s.protocol == "NVMe") {
    s.rotation_rpm = 0;  // NVMe has no spinning media
  } else if (auto rpm = r.Int(j, {"rotation_rate"}, 0, 1'000'000)) {
    if (*rpm == 0) {
      // ATA: smartctl writes the key only when the drive reports a rate, and 0
      // means solid state. SCSI: smartctl writes 0 for "not reported" too, so
      // there it means nothing.
      if (s.protocol == "ATA") s.rotation_rpm = 0;
    } else if (*rpm > 0x400 && *rpm < 0xffff) {
      s.rotation_rpm = *rpm;
    } else {
      r.Warn("rotation_rate: " + std::to_string(*rpm) + " is a reserved value; reported as unknown");
    }
  }
}

void ParseHealth(const json& j, SmartSnapshot& s, Reader& r) {
  std::optional<bool> passed = r.Bool(j, {"smart_status", "passed"});
  // A device that says SMART is unavailable or disabled has no verdict to
  // give, whatever smart_status says (iSCSI LUNs answer "passed").
  bool disabled = false;
  if (const json* sup = r.Find(j, {"smart_support"})) {
    if (sup->is_boolean()) {
      disabled = !sup->get<bool>();
    } else if (sup->is_object()) {
      if (r.Bool(*sup, {"available"}) == false || r.Bool(*sup, {"enabled"}) == false) {
        disabled = true;
      }
    }
  }
  if (passed && disabled) {
    r.Warn("smart_status.passed ignored: SMART is not available or not enabled on this device");
    passed.reset();
  }
  s.health_passed = passed;
}

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

void ParseCounters(const json& j, SmartSnapshot& s, Reader& r) {
  // Temperature: smartctl's own reading first (it decodes SCT and attribute
  // 194/190 for ATA), then SCT status, then the attributes' raw strings.
  s.temperature_c = CheckedCelsius(r.Int(j, {"temperature", "current"}, -1000, 1000),
                                   "temperature.current", r);
  if (!s.temperature_c) {
    s.temperature_c = CheckedCelsius(r.Int(j, {"ata_sct_status", "temperature", "current"}, -1000, 1000),
                                     "ata_sct_status.temperature.current", r);
  }
  if (!s.temperature_c && s.protocol == "NVMe") {
    s.temperature_c = CheckedCelsius(
        r.Int(j, {"nvme_smart_health_information_log", "temperature"}, -1000, 1000),
        "nvme_smart_health_information_log.temperature", r);
  }
  for (int id : {194, 190}) {
    if (s.temperature_c) break;
    if (const SmartAttribute* a = FindAttribute(s, id)) {
      if (auto t = LeadingNumber(a->raw_string); t && *t < 1000) {
        s.temperature_c = CheckedCelsius(static_cast<int>(*t),
                                         id == 194 ? "attribute 194" : "attribute 190", r);
      }
    }
  }

  s.power_on_hours = r.U64(j, {"power_on_time", "hours"});
  if (!s.power_on_hours) s.power_on_hours = r.U64(j, {"nvme_smart_health_information_log", "power_on_hours"});
  if (!s.power_on_hours) {
    const SmartAttribute* a = FindAttribute(s, 9);
    if (a && a->name == "Power_On_Hours") s.power_on_hours = LeadingNumber(a->raw_string);
  }
  s.power_cycles = r.U64(j, {"power_cycle_count"});
  if (!s.power_cycles) s.power_cycles = r.U64(j, {"nvme_smart_health_information_log", "power_cycles"});
  if (!s.power_cycles) {
    s.power_cycles = r.U64(j, {"scsi_start_stop_cycle_counter", "accumulated_start_stop_cycles"});
  }
  if (!s.power_cycles) {
    const SmartAttribute* a = FindAttribute(s, 12);
    if (a && a->name == "Power_Cycle_Count") s.power_cycles = a->raw;
  }

  if (s.protocol == "SCSI" || r.Find(j, {"scsi_grown_defect_list"})) {
    s.reallocated_sectors = r.U64(j, {"scsi_grown_defect_list"});
  }
  if (!s.reallocated_sectors) s.reallocated_sectors = AttrRaw(s, 5);
  s.pending_sectors = AttrRaw(s, 197);
  s.offline_uncorrectable = AttrRaw(s, 198);
  s.reported_uncorrectable = AttrRaw(s, 187);
  s.command_timeouts = AttrRaw(s, 188);
  s.udma_crc_errors = AttrRaw(s, 199);

  if (const json* h = r.Find(j, {"nvme_smart_health_information_log"}); h && h->is_object()) {
    NvmeHealth n;
    n.critical_warning = r.U64(*h, {"critical_warning"}, 0xff);
    n.media_errors = r.U64(*h, {"media_errors"});
    n.percentage_used = r.Int(*h, {"percentage_used"}, 0, 255);
    n.available_spare = r.Int(*h, {"available_spare"}, 0, 100);
    n.available_spare_threshold = r.Int(*h, {"available_spare_threshold"}, 0, 100);
    n.unsafe_shutdowns = r.U64(*h, {"unsafe_shutdowns"});
    n.num_err_log_entries = r.U64(*h, {"num_err_log_entries"});
    s.nvme = n;
  }
}

// ATA status value: upper nibble 0 = passed, 1-2 = aborted/interrupted by
// the host (no verdict), 3-8 = a failure, 15 = in progress.
std::optional<bool> AtaPassedFromValue(int value) {
  int nib = value >> 4;
  if (nib == 0) return true;
  if (nib >= 3 && nib <= 8) return false;
  return std::nullopt;
}

void ParseSelfTests(const json& j, SmartSnapshot& s, Reader& r) {
  // ATA: the extended (GP) log when -x read it, else the standard one.
  const json* table = r.Find(j, {"ata_smart_self_test_log", "extended", "table"});
  if (!table) table = r.Find(j, {"ata_smart_self_test_log", "standard", "table"});
  if (table && table->is_array()) {
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
  // NVMe self-test log (smartctl >= 7.3 with -x or -l selftest).
  table = r.Find(j, {"nvme_self_test_log", "table"});
  if (table && table->is_array()) {
    for (const auto& tj : *table) {
      if (!tj.is_object()) continue;
      auto result = r.Int(tj, {"self_test_result", "value"}, 0, 15);
      if (result == 15) continue;  // entry not used
      SmartSelfTest t;
      t.type = NormaliseTestType(r.Str(tj, {"self_test_code", "string"}));
      t.status = r.Str(tj, {"self_test_result", "string"});
      if (result) {
        if (*result == 0) t.passed = true;
        else if (*result >= 5 && *result <= 7) t.passed = false;  // fatal / failed segment(s)
      }
      t.lifetime_hours = r.U64(tj, {"power_on_hours"});
      s.self_tests.push_back(std::move(t));
    }
  }
  // SCSI: scsi_self_test_0 .. _19, newest first.
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

  // Progress and durations.
  if (auto v = r.Int(j, {"ata_smart_data", "self_test", "status", "value"}, 0, 255)) {
    if ((*v >> 4) == 0xF) {
      s.self_test_running = true;
      s.self_test_remaining_percent =
          r.Int(j, {"ata_smart_data", "self_test", "status", "remaining_percent"}, 0, 100);
      if (!s.self_test_remaining_percent) s.self_test_remaining_percent = (*v & 0xF) * 10;
    }
  }
  if (auto op = r.Int(j, {"nvme_self_test_log", "current_self_test_operation", "value"}, 0, 255);
      op && *op != 0) {
    s.self_test_running = true;
    if (auto done = r.Int(j, {"nvme_self_test_log", "current_self_test_completion_percent"}, 0, 100)) {
      s.self_test_remaining_percent = 100 - *done;
    }
  }
  s.short_test_minutes = r.Int(j, {"ata_smart_data", "self_test", "polling_minutes", "short"}, 0, 100000);
  s.extended_test_minutes =
      r.Int(j, {"ata_smart_data", "self_test", "polling_minutes", "extended"}, 0, 100000);
  if (!s.extended_test_minutes) {
    if (auto secs = r.Int(j, {"scsi_extended_self_test_seconds"}, 0, 100'000'000)) {
      s.extended_test_minutes = (*secs + 59) / 60;
    }
  }
}

// "smartctl 6.6 2016-05-31 r4324 [...]" -> "6.6"
std::string SmartctlBannerVersion(std::string_view text) {
  static const std::regex kBanner(R"(smartctl (\d+)\.(\d+))");
  std::string head(text.substr(0, 4096));
  std::smatch m;
  if (std::regex_search(head, m, kBanner)) return m[1].str() + "." + m[2].str();
  return "";
}

std::string FirstLine(std::string_view text) {
  auto nl = text.find('\n');
  std::string line(text.substr(0, std::min<std::size_t>(nl, 120)));
  return line;
}

bool HasDeviceData(const json& j) {
  for (const char* k : {"model_name", "serial_number", "ata_smart_attributes",
                        "nvme_smart_health_information_log", "scsi_model_name", "product",
                        "smart_status", "user_capacity"}) {
    if (j.contains(k)) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> FormatAtaWwn(std::uint64_t naa, std::uint64_t oui, std::uint64_t id) {
  if (naa > 0xF || oui > 0xFFFFFF || id > 0xFFFFFFFFFULL) return std::nullopt;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%01" PRIx64 "%06" PRIx64 "%09" PRIx64, naa, oui, id);
  return std::string(buf);
}

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

Result<SmartReading> ParseSmartctlOutput(std::string_view text, std::optional<int> exit_code) {
  std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) {
    return Corrupt("smartctl printed nothing" +
                   (exit_code ? " (exit status " + std::to_string(*exit_code) + ")" : std::string()));
  }
  std::string_view body = text.substr(start);
  if (body[0] != '{') {
    std::string version = SmartctlBannerVersion(body);
    if (!version.empty() && version[0] != '0' && std::stoi(version) < 7) {
      return Unsupported("smartctl " + version +
                         " cannot write JSON; diskpulse needs smartctl 7.0 or newer "
                         "(install a newer smartmontools)");
    }
    if (body.find("UNRECOGNIZED OPTION") != std::string_view::npos) {
      return Unsupported("this smartctl does not know the JSON option -j; diskpulse needs "
                         "smartctl 7.0 or newer (install a newer smartmontools)");
    }
    // A pasted report may start with a prompt line; look for the object.
    auto brace = body.find("\n{");
    if (brace == std::string_view::npos) {
      return Corrupt("smartctl output is not JSON (it starts with \"" + FirstLine(body) + "\")");
    }
    body = body.substr(brace + 1);
  }

  json j;
  try {
    j = json::parse(body.begin(), body.end());
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e400
    return Corrupt(std::string("smartctl output is not valid JSON (truncated?): ") + e.what());
  }
  if (!j.is_object()) return Corrupt("smartctl output is JSON but not an object");
  if (j.contains("devices") && !j.contains("device")) {
    return InvalidArgument("this is `smartctl --scan` output (a list of devices), not one "
                           "device's SMART report");
  }

  SmartReading reading;
  SmartSnapshot& s = reading.snapshot;
  Reader r(s.parse_warnings);
  s.raw_json = std::string(text);
  s.smartctl_exit_status = r.Int(j, {"smartctl", "exit_status"}, 0, 255);
  if (!s.smartctl_exit_status && exit_code && *exit_code >= 0) s.smartctl_exit_status = exit_code;

  std::vector<std::string> errors;
  if (const json* msgs = r.Find(j, {"smartctl", "messages"}); msgs && msgs->is_array()) {
    for (const auto& m : *msgs) {
      std::string text_m = r.Str(m, {"string"});
      if (text_m.empty()) continue;
      s.messages.push_back(text_m);
      if (r.Str(m, {"severity"}) == "error") errors.push_back(text_m);
    }
  }
  for (const auto& m : s.messages) {
    if (MessageSaysAsleep(m)) {
      reading.asleep = true;
      reading.skip_reason = "skipped: asleep (" + m + ")";
      return reading;
    }
  }

  SmartctlExitStatus exit = DecodeSmartctlExit(s.smartctl_exit_status.value_or(0));
  if (exit.NoData() && !HasDeviceData(j)) {
    std::string why;
    for (const auto& e : errors.empty() ? s.messages : errors) {
      if (!why.empty()) why += "; ";
      why += e;
    }
    if (why.empty()) {
      why = "exit status " + std::to_string(exit.raw) + " (" + DescribeSmartctlExit(exit.raw)[0] +
            ") and no device data";
    }
    if (exit.command_line_error) {
      // Bit 0 also covers "Unable to detect device type" (virtual disks,
      // unknown USB bridges): smartctl needs -d TYPE or cannot help.
      return InvalidArgument("smartctl refused the request: " + why);
    }
    if (why.find("Permission denied") != std::string::npos) {
      return PermissionDenied("smartctl could not open the device: " + why +
                              " (diskpulse must run as root to read SMART)");
    }
    return Unavailable("smartctl could not open the device: " + why);
  }

  if (auto v = r.Find(j, {"smartctl", "version"}); v && v->is_array() && !v->empty() &&
                                                   (*v)[0].is_number_integer() &&
                                                   (*v)[0].get<int>() < 7) {
    r.Warn("smartctl " + std::to_string((*v)[0].get<int>()) +
           ".x wrote experimental JSON; some fields may be missing (7.0 or newer recommended)");
  }

  ParseIdentity(j, s, r);
  ParseHealth(j, s, r);
  ParseAtaAttributes(j, s, r);
  ParseCounters(j, s, r);
  ParseSelfTests(j, s, r);
  return reading;
}

}  // namespace dp
