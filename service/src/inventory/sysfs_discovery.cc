#include "inventory/sysfs_discovery.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>

#include "inventory/drive_identity.h"

namespace dp {
namespace fs = std::filesystem;
namespace {

std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ReadLine(const fs::path& p) { return TrimField(ReadText(p)); }

std::optional<std::uint64_t> ReadU64(const fs::path& p) {
  std::string s = ReadLine(p);
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoull(s);
}

std::map<std::string, std::string> ReadUdev(const fs::path& file, std::vector<std::string>& links) {
  std::map<std::string, std::string> env;
  std::istringstream in(ReadText(file));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("E:", 0) == 0) {
      auto eq = line.find('=');
      if (eq != std::string::npos) env[line.substr(2, eq - 2)] = line.substr(eq + 1);
    } else if (line.rfind("S:", 0) == 0) {
      links.push_back(line.substr(2));
    }
  }
  return env;
}

bool Listed(const std::vector<std::string>& list, const std::string& name) {
  for (const auto& e : list) {
    if (e == name || e == "/dev/" + name) return true;
  }
  return false;
}

std::string Get(const std::map<std::string, std::string>& m, const char* key) {
  auto it = m.find(key);
  return it == m.end() ? "" : TrimField(it->second);
}

}  // namespace

bool SkippedByDefault(const std::string& name) {
  static const std::regex kSkip(R"(^(loop|ram|zram|dm-|md|sr|fd|nbd|zd|mtdblock|rbd|drbd)\d*.*$)");
  return std::regex_match(name, kSkip);
}

std::string DecodeUdevEscapes(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x' && std::isxdigit(static_cast<unsigned char>(s[i + 2])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 3]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string SerialFromVpdPage80(const std::string& blob) {
  if (blob.size() < 4 || static_cast<unsigned char>(blob[1]) != 0x80) return "";
  std::size_t len = static_cast<unsigned char>(blob[3]);
  std::string serial = blob.substr(4, std::min(len, blob.size() - 4));
  for (char c : serial) {
    if (c != 0 && (c < 0x20 || c > 0x7e)) return "";  // not ASCII: not a serial
  }
  serial.erase(std::remove(serial.begin(), serial.end(), '\0'), serial.end());
  return TrimField(serial);
}

std::string TransportFromSysfsPath(const std::string& p, const std::string& name) {
  static const std::regex kUsb(R"(/usb\d+/)"), kSession(R"(/session\d+/)"),
      kSasPort(R"(/port-\d+:\d+)"), kAta(R"(/ata\d+/)");
  if (name.rfind("nvme", 0) == 0 || p.find("/nvme/") != std::string::npos) return "nvme";
  if (std::regex_search(p, kUsb)) return "usb";
  if (p.find("/session") != std::string::npos && p.find("iscsi") != std::string::npos) return "iscsi";
  if (std::regex_search(p, kSession)) return "iscsi";
  if (p.find("/end_device-") != std::string::npos || std::regex_search(p, kSasPort)) {
    return "sas";
  }
  if (std::regex_search(p, kAta)) return "sata";
  if (p.find("virtio") != std::string::npos || p.find("/vmbus") != std::string::npos ||
      p.find("/xen") != std::string::npos || name.rfind("vd", 0) == 0 || name.rfind("xvd", 0) == 0) {
    return "virtual";
  }
  return "";
}

std::string ControllerFromSysfsPath(const std::string& p) {
  static const std::regex kPci(R"([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])");
  std::string last;
  for (auto it = std::sregex_iterator(p.begin(), p.end(), kPci); it != std::sregex_iterator(); ++it) {
    last = it->str();
  }
  return last;
}

namespace {

// The symlinks under DEV/disk/* and DEV/mapper into `aliases`; returns each
// kernel name's /dev/disk/by-id paths.
std::map<std::string, std::vector<std::string>> ReadDevAliases(const InventoryConfig& config,
                                                               DeviceAliases& aliases) {
  std::error_code ec;
  std::map<std::string, std::vector<std::string>> by_id;  // kernel name -> by-id paths
  fs::path disk_dir = fs::path(config.dev_root) / "disk";
  if (fs::is_directory(disk_dir, ec)) {
    for (const auto& sub : fs::directory_iterator(disk_dir, ec)) {
      if (!sub.is_directory()) continue;
      std::string kind = sub.path().filename().string();
      for (const auto& link : fs::directory_iterator(sub.path(), ec)) {
        if (!fs::is_symlink(link.symlink_status())) continue;
        std::string target = fs::read_symlink(link.path(), ec).filename().string();
        if (ec || target.empty()) continue;
        std::string alias = "/dev/disk/" + kind + "/" + link.path().filename().string();
        aliases.Add(alias, target);
        if (kind == "by-id") by_id[target].push_back(alias);
      }
    }
  }
  fs::path mapper = fs::path(config.dev_root) / "mapper";
  if (fs::is_directory(mapper, ec)) {
    for (const auto& link : fs::directory_iterator(mapper, ec)) {
      if (!fs::is_symlink(link.symlink_status())) continue;
      std::string target = fs::read_symlink(link.path(), ec).filename().string();
      if (!ec && !target.empty()) aliases.Add("/dev/mapper/" + link.path().filename().string(), target);
    }
  }
  return by_id;
}

}  // namespace

Result<DiscoveredDevices> DiscoverSysfsDrives(const InventoryConfig& config) {
  DiscoveredDevices out;
  fs::path block = fs::path(config.sysfs_root) / "block";
  std::error_code ec;
  if (!fs::is_directory(block, ec)) return NotFound(block.string() + ": no sysfs block directory");

  // Symlinks under DEV/disk/* and DEV/mapper: the aliases pool members use.
  std::map<std::string, std::vector<std::string>> by_id = ReadDevAliases(config, out.aliases);

  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(block, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  std::set<std::string> seen_ids;
  for (const auto& dir : entries) {
    std::string name = dir.filename().string();
    bool included = Listed(config.include, name);
    if (Listed(config.exclude, name)) continue;

    // Partitions, and the device under a device-mapper/md holder.
    for (const auto& sub : fs::directory_iterator(dir, ec)) {
      if (sub.is_directory() && fs::exists(sub.path() / "partition")) {
        out.aliases.partition_parent[sub.path().filename().string()] = name;
      }
    }
    if (fs::is_directory(dir / "slaves", ec)) {
      std::vector<std::string> slaves;
      for (const auto& s : fs::directory_iterator(dir / "slaves", ec)) {
        slaves.push_back(s.path().filename().string());
      }
      if (slaves.size() == 1) out.aliases.holder_slave[name] = slaves[0];
    }
    if (SkippedByDefault(name) && !included) continue;

    Drive d;
    d.name = name;
    d.dev_path = (fs::path(config.dev_root) / name).string();
    auto sectors = ReadU64(dir / "size");
    if (!sectors || *sectors == 0) {
      out.warnings.push_back(name + ": size 0 (no medium?); skipped");
      continue;
    }
    d.size_bytes = *sectors * 512;
    if (auto v = ReadU64(dir / "queue" / "logical_block_size"); v && *v >= 512 && *v <= 65536) {
      d.logical_block_size = static_cast<std::uint32_t>(*v);
    }
    if (auto v = ReadU64(dir / "queue" / "physical_block_size"); v && *v >= 512 && *v <= (1u << 20)) {
      d.physical_block_size = static_cast<std::uint32_t>(*v);
    }
    if (auto v = ReadU64(dir / "queue" / "rotational"); v && *v <= 1) d.rotational = *v == 1;

    std::vector<std::string> udev_links;
    std::map<std::string, std::string> udev;
    std::string devnum = ReadLine(dir / "dev");
    if (!devnum.empty()) udev = ReadUdev(fs::path(config.udev_data_dir) / ("b" + devnum), udev_links);

    fs::path dev = dir / "device";
    d.model = TrimField(DecodeUdevEscapes(Get(udev, "ID_MODEL_ENC")));
    if (d.model.empty()) {
      std::string model = ReadLine(dev / "model");
      std::string vendor = ReadLine(dev / "vendor");
      if (vendor.rfind("0x", 0) == 0) vendor.clear();  // virtio: a PCI vendor id, not a name
      d.model = ModelFromVendorProduct(vendor, model);
    }
    d.serial = Get(udev, "ID_SERIAL_SHORT");
    if (d.serial.empty()) d.serial = ReadLine(dev / "serial");
    if (d.serial.empty()) d.serial = SerialFromVpdPage80(ReadText(dev / "vpd_pg80"));
    d.wwn = NormaliseWwn(Get(udev, "ID_WWN"));
    if (!d.wwn) d.wwn = NormaliseWwn(ReadLine(dir / "wwid"));
    if (!d.wwn) d.wwn = NormaliseWwn(ReadLine(dev / "wwid"));
    d.firmware = Get(udev, "ID_REVISION");
    if (d.firmware.empty()) d.firmware = ReadLine(dev / "firmware_rev");
    if (d.firmware.empty()) d.firmware = ReadLine(dev / "rev");

    std::string real = fs::weakly_canonical(dir, ec).string();
    std::string bus = Get(udev, "ID_BUS");
    if (name.rfind("nvme", 0) == 0 || bus == "nvme") d.transport = "nvme";
    else if (bus == "usb") d.transport = "usb";
    else if (bus == "ata") d.transport = "sata";
    else d.transport = TransportFromSysfsPath(real, name);
    d.controller = ControllerFromSysfsPath(real);
    if (d.transport == "virtual") d.rotational.reset();  // virtio says "rotational" by default

    std::string rpm = Get(udev, "ID_ATA_ROTATION_RATE_RPM");
    if (!rpm.empty() && rpm.find_first_not_of("0123456789") == std::string::npos && rpm.size() < 7) {
      int r = std::stoi(rpm);
      if (r == 0 || (r > 0x400 && r < 0xffff)) d.rotation_rpm = r;
    } else if (d.transport == "nvme" || (d.rotational == false && d.transport != "virtual")) {
      d.rotation_rpm = 0;
    }

    std::set<std::string> stable(by_id[name].begin(), by_id[name].end());
    for (const auto& l : udev_links) {
      if (l.rfind("disk/by-id/", 0) == 0) {
        stable.insert("/dev/" + l);
        out.aliases.Add("/dev/" + l, name);
      }
    }
    d.stable_paths.assign(stable.begin(), stable.end());
    // Without identity the id falls back to the kernel name as the machine
    // knows it ("/dev/sdc"), whatever tree discovery read.
    d.id = MakeDriveId(d.wwn, d.model, d.serial, "/dev/" + name);
    if (!seen_ids.insert(d.id).second) {
      out.warnings.push_back(name + ": same identity " + d.id +
                             " as another drive (multipath?); listed once");
      continue;
    }
    out.drives.push_back(std::move(d));
  }
  return out;
}

}  // namespace dp
