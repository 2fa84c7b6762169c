// The top level of smartctl's JSON: what every device has whatever its
// protocol (identity, the health verdict, smartctl's own messages and exit
// status, the common temperature and power figures) and the order in which
// the protocol files (smartctl_ata.cc, smartctl_nvme.cc, smartctl_scsi.cc)
// are asked where smartctl writes one figure in several places.
#include "smart/smartctl_parser.h"

#include <regex>

#include "base/strings.h"
#include "smart/smartctl_exit_status.h"
#include "smart/smartctl_json.h"
#include "smart/smartctl_protocols.h"

namespace dp {
namespace {

// The reader and the protocol files' functions, which this file calls.
using namespace smartctl;

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

void ParseCounters(const json& j, SmartSnapshot& s, Reader& r) {
  // Each figure from the first place that has it, in this order. Temperature:
  // smartctl's own reading first (it decodes SCT and attribute 194/190 for
  // ATA), then SCT status, then NVMe's health log, then the attributes' raw
  // strings.
  s.temperature_c = CheckedCelsius(r.Int(j, {"temperature", "current"}, -1000, 1000),
                                   "temperature.current", r);
  if (!s.temperature_c) s.temperature_c = AtaSctTemperature(j, r);
  if (!s.temperature_c && s.protocol == "NVMe") s.temperature_c = NvmeTemperature(j, r);
  if (!s.temperature_c) s.temperature_c = AtaAttributeTemperature(s, r);

  s.power_on_hours = r.U64(j, {"power_on_time", "hours"});
  if (!s.power_on_hours) s.power_on_hours = NvmePowerOnHours(j, r);
  if (!s.power_on_hours) s.power_on_hours = AtaPowerOnHours(s);
  s.power_cycles = r.U64(j, {"power_cycle_count"});
  if (!s.power_cycles) s.power_cycles = NvmePowerCycles(j, r);
  if (!s.power_cycles) s.power_cycles = ScsiPowerCycles(j, r);
  if (!s.power_cycles) s.power_cycles = AtaPowerCycles(s);

  // Reallocated sectors: SCSI's grown defect list before ATA's attribute 5.
  ParseScsiGrownDefects(j, s, r);
  SetAtaErrorCounts(s);
  ParseNvmeHealth(j, s, r);
}

// The logs first (a device has one of them; a document with several lists
// ATA's entries, then NVMe's, then SCSI's), then whether a test runs now and
// how far it is (NVMe's figure over ATA's), then how long tests take (SCSI's
// only where ATA gave no extended time).
void ParseSelfTests(const json& j, SmartSnapshot& s, Reader& r) {
  ParseAtaSelfTestLog(j, s, r);
  ParseNvmeSelfTestLog(j, s, r);
  ParseScsiSelfTestLog(j, s, r);
  ParseAtaSelfTestStatus(j, s, r);
  ParseNvmeSelfTestStatus(j, s, r);
  ParseAtaSelfTestDurations(j, s, r);
  ParseScsiSelfTestDuration(j, s, r);
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
