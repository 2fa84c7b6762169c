#include "inventory/pool_member_mapper.h"

#include <cctype>
#include <regex>

#include "base/strings.h"

namespace dp {
namespace {

std::string Basename(const std::string& p) {
  auto s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string StripDev(const std::string& p) { return p.rfind("/dev/", 0) == 0 ? p.substr(5) : p; }

const Drive* DriveByName(const std::vector<Drive>& drives, const std::string& name) {
  for (const auto& d : drives) {
    if (d.name == name || Basename(d.dev_path) == name) return &d;
  }
  return nullptr;
}

// Follows holders (dm-3 -> sda2) and strips GELI/gnop suffixes.
std::string Underlying(std::string k, const DeviceAliases& a) {
  for (int i = 0; i < 4; ++i) {
    for (const char* suffix : {".eli", ".nop"}) {
      std::string s(suffix);
      if (k.size() > s.size() && k.compare(k.size() - s.size(), s.size(), s) == 0) {
        k.resize(k.size() - s.size());
      }
    }
    auto it = a.holder_slave.find(k);
    if (it == a.holder_slave.end()) break;
    k = it->second;
  }
  return k;
}

const Drive* DriveForKernelName(const std::string& kernel, const std::vector<Drive>& drives,
                                const DeviceAliases& a) {
  std::string k = Underlying(kernel, a);
  if (const Drive* d = DriveByName(drives, k)) return d;
  auto it = a.partition_parent.find(k);
  if (it != a.partition_parent.end()) {
    if (const Drive* d = DriveByName(drives, Underlying(it->second, a))) return d;
  }
  return DriveByName(drives, StripPartitionSuffix(k));
}

// Identity carried in a by-id style name: "wwn-0x5000c500c65ac66f-part2",
// "ata-ST8000VN004-2M2101_WSD4EYEW-part1", "diskid/DISK-WD-WCC4N0XXXX".
const Drive* DriveFromIdentityName(const std::string& path, const std::vector<Drive>& drives) {
  static const std::regex kPart(R"(^(.*?)(-part\d+)?$)");
  std::string base = Basename(path);
  std::smatch m;
  if (std::regex_match(base, m, kPart)) base = m[1].str();
  for (const auto& d : drives) {
    for (const auto& sp : d.stable_paths) {
      if (Basename(sp) == base) return &d;
    }
  }
  if (base.rfind("wwn-0x", 0) == 0) {
    const std::string hex = AsciiLower(base.substr(6));
    for (const auto& d : drives) {
      if (d.wwn && *d.wwn == hex) return &d;
    }
    return nullptr;
  }
  // bus-MODEL_SERIAL (udev) or DISK-SERIAL (FreeBSD diskid): match the serial
  // and, when the name carries one, the model.
  std::string rest;
  for (const char* prefix : {"ata-", "nvme-", "scsi-", "usb-", "DISK-"}) {
    if (base.rfind(prefix, 0) == 0) rest = base.substr(std::string(prefix).size());
  }
  if (rest.empty()) return nullptr;
  auto us = rest.rfind('_');
  std::string model = us == std::string::npos ? "" : rest.substr(0, us);
  std::string serial = us == std::string::npos ? rest : rest.substr(us + 1);
  const Drive* found = nullptr;
  for (const auto& d : drives) {
    if (d.serial.empty() || FoldName(d.serial) != FoldName(serial)) continue;
    if (!model.empty() && !d.model.empty() && FoldName(d.model).find(FoldName(model)) == std::string::npos &&
        FoldName(model).find(FoldName(d.model)) == std::string::npos) {
      continue;
    }
    if (found) return nullptr;  // ambiguous: two drives with this serial
    found = &d;
  }
  return found;
}

}  // namespace

std::string StripPartitionSuffix(const std::string& name) {
  static const std::vector<std::regex> kPatterns = {
      std::regex(R"(^((?:sd|vd|xvd|hd)[a-z]+)\d+$)"),                 // sda1
      std::regex(R"(^((?:nvme\d+n\d+|mmcblk\d+|nvd\d+|nda\d+))p\d+$)"),  // nvme0n1p2
      std::regex(R"(^((?:ada|da|vtbd|mfid|mmcsd|ad|xbd)\d+)(?:p\d+|s\d+[a-h]?)$)"),  // ada0p3, da0s1a
      std::regex(R"(^(c\d+(?:t[0-9A-Fa-f]+)?d\d+)(?:s\d+|p\d+)$)"),   // c1t0d0s6
  };
  for (const auto& re : kPatterns) {
    std::smatch m;
    if (std::regex_match(name, m, re)) return m[1].str();
  }
  return name;
}

std::optional<std::string> MapMemberToDrive(const std::string& member_path,
                                            const std::vector<Drive>& drives,
                                            const DeviceAliases& aliases) {
  if (member_path.empty()) return std::nullopt;
  for (const std::string& c : {member_path, StripDev(member_path), Basename(member_path)}) {
    auto it = aliases.to_kernel.find(c);
    if (it != aliases.to_kernel.end()) {
      if (const Drive* d = DriveForKernelName(it->second, drives, aliases)) return d->id;
    }
  }
  // A kernel name: "sdb", "sda1", "/dev/ada0p3", "c1t0d0s6".
  std::string k = StripDev(member_path);
  if (k.find('/') == std::string::npos) {
    if (const Drive* d = DriveForKernelName(k, drives, aliases)) return d->id;
  }
  if (const Drive* d = DriveFromIdentityName(member_path, drives)) return d->id;
  return std::nullopt;
}

std::vector<std::string> MapPoolMembers(std::vector<Pool>& pools, const std::vector<Drive>& drives,
                                        const DeviceAliases& aliases) {
  std::vector<std::string> warnings;
  for (auto& pool : pools) {
    for (auto& vdev : pool.vdevs) {
      for (auto& m : vdev.members) {
        if (m.container) continue;
        auto id = MapMemberToDrive(m.path, drives, aliases);
        m.drive_id = id.value_or("");
        if (!id) warnings.push_back("pool " + pool.name + ": member " + m.path + " maps to no known drive");
      }
    }
  }
  return warnings;
}

}  // namespace dp
