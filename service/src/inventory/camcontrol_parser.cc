#include "inventory/camcontrol_parser.h"

#include <regex>
#include <sstream>

#include "inventory/drive_identity.h"

namespace dp {

Result<CamIdentify> ParseCamcontrolIdentify(std::string_view text) {
  CamIdentify id;
  bool saw_model = false;
  std::istringstream in{std::string(text)};
  // "device model          WDC WD40EFRX-68N32N0": the key is separated from
  // the value by a run of two or more spaces.
  static const std::regex kLine(R"(^(\S.*?)\s{2,}(.*)$)");
  static const std::regex kSector(R"(logical (\d+), physical (\d+))");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, kLine)) continue;
    std::string key = m[1].str(), value = TrimField(m[2].str());
    if (key == "device model") {
      id.model = value;
      saw_model = true;
    } else if (key == "serial number") {
      id.serial = value;
    } else if (key == "firmware revision") {
      id.firmware = value;
    } else if (key == "WWN") {
      id.wwn = NormaliseWwn(value);
    } else if (key == "protocol") {
      id.protocol = value;
    } else if (key == "media RPM") {
      if (value == "non-rotating") {
        id.rotation_rpm = 0;
      } else {
        try {
          int rpm = std::stoi(value);
          if (rpm > 0x400 && rpm < 0xffff) id.rotation_rpm = rpm;
        } catch (const std::exception&) {
        }
      }
    } else if (key == "sector size") {
      std::smatch sm;
      if (std::regex_search(value, sm, kSector)) {
        try {  // digits too many for a number are not a sector size
          id.logical_sector_size = static_cast<std::uint32_t>(std::stoul(sm[1].str()));
          id.physical_sector_size = static_cast<std::uint32_t>(std::stoul(sm[2].str()));
        } catch (const std::exception&) {
          id.logical_sector_size.reset();
          id.physical_sector_size.reset();
        }
      }
    }
  }
  if (!saw_model) return Corrupt("camcontrol identify output not understood: no 'device model' line");
  return id;
}

std::map<std::string, std::string> ParseCamcontrolDevlist(std::string_view text) {
  std::map<std::string, std::string> out;
  std::istringstream in{std::string(text)};
  static const std::regex kBus(R"(^scbus\d+ on (\S+) bus)");
  static const std::regex kDevice(R"(at scbus\d+ target \S+ lun \S+ \(([^)]*)\))");
  std::string controller;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, kBus)) {
      controller = m[1].str();
      continue;
    }
    if (std::regex_search(line, m, kDevice)) {
      std::stringstream names(m[1].str());
      for (std::string n; std::getline(names, n, ',');) {
        n = TrimField(n);
        if (!n.empty() && n.rfind("pass", 0) != 0 && n.rfind("ses", 0) != 0) out[n] = controller;
      }
    }
  }
  return out;
}

std::string TransportFromController(std::string_view c) {
  auto starts = [&](std::string_view p) { return c.substr(0, p.size()) == p; };
  if (starts("ahcich") || starts("ata") || starts("siisch") || starts("mvsch")) return "sata";
  if (starts("umass")) return "usb";
  if (starts("nvme")) return "nvme";
  if (starts("mps") || starts("mpr") || starts("mrsas") || starts("isp") || starts("mpt") ||
      starts("ciss") || starts("arcmsr") || starts("pmspcv") || starts("smartpqi")) {
    return "sas";
  }
  if (starts("vtscsi")) return "virtual";
  return "";
}

}  // namespace dp
