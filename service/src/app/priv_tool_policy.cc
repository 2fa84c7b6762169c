#include "app/priv_tool_policy.h"

#include <algorithm>
#include <cstddef>

#include "base/command_runner.h"
#include "model/drive_override.h"

namespace dp {
namespace {

using Args = std::vector<std::string>;

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// A device node path as discovery names it: under /dev/, no "..", no control
// characters (udev's by-id names use letters, digits and -_.:).
bool IsDevicePath(const std::string& s) {
  if (!StartsWith(s, "/dev/") || s.size() <= 5 || s.size() > 256) return false;
  if (s.find("/../") != std::string::npos || s.ends_with("/..")) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return c > 0x20 && c < 0x7f; });
}

// A smartctl -d type ("sat", "nvme", "sat,12", "megaraid,3"), the shape
// the config file's overrides are checked against.
bool IsDeviceType(const std::string& s) { return IsSmartctlDeviceType(s); }

// A FreeBSD disk name ("ada0", "da12", "nvd0"), as kern.disks lists them.
bool IsDiskName(const std::string& s) {
  if (s.empty() || s.size() > 32) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_';
  });
}

// A ZFS pool name as zpool(8) allows it: a letter first, then letters,
// digits and _-:. or blanks; never an option.
bool IsPoolName(const std::string& s) {
  if (s.empty() || s.size() > 255) return false;
  unsigned char first = static_cast<unsigned char>(s[0]);
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z'))) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == ':' || c == '.' || c == ' ';
  });
}

// zpool as watch/zfs_latency_sampler.cc calls it, for one pool:
//   iostat -v -l -p -P -y POOL 5 1
//   status -s -p -P POOL
//   get -H -p sit_out POOL all-vdevs   (read-only: `get` never sets)
//   iostat -w -v -p -P POOL
bool ZpoolSamplingArgsAllowed(const Args& a) {
  if (a.size() == 9)
    return Args(a.begin(), a.begin() + 6) == Args{"iostat", "-v", "-l", "-p", "-P", "-y"} &&
           IsPoolName(a[6]) && a[7] == "5" && a[8] == "1";
  if (a.size() == 6 && a[0] == "get")
    return Args(a.begin(), a.begin() + 4) == Args{"get", "-H", "-p", "sit_out"} &&
           IsPoolName(a[4]) && a[5] == "all-vdevs";
  if (a.size() == 6)
    return Args(a.begin(), a.begin() + 5) == Args{"iostat", "-w", "-v", "-p", "-P"} &&
           IsPoolName(a[5]);
  if (a.size() == 5)
    return Args(a.begin(), a.begin() + 4) == Args{"status", "-s", "-p", "-P"} && IsPoolName(a[4]);
  return false;
}

// smartctl as smart/smart_reader.cc and smart/self_test.cc call it:
//   -x -j -n standby [-d TYPE] DEV
//   -j -n standby -t short|long [-d TYPE] DEV
//   -j -n standby -c -l selftest [-d TYPE] DEV
bool SmartctlArgsAllowed(const Args& a) {
  static const std::vector<Args> kHeads = {
      {"-x", "-j", "-n", "standby"},
      {"-j", "-n", "standby", "-t", "short"},
      {"-j", "-n", "standby", "-t", "long"},
      {"-j", "-n", "standby", "-c", "-l", "selftest"},
  };
  for (const Args& head : kHeads) {
    if (a.size() < head.size() + 1 || !std::equal(head.begin(), head.end(), a.begin())) continue;
    std::size_t rest = a.size() - head.size();
    if (rest == 1) return IsDevicePath(a.back());
    if (rest == 3)
      return a[head.size()] == "-d" && IsDeviceType(a[head.size() + 1]) && IsDevicePath(a.back());
    return false;
  }
  return false;
}

bool OneOf(const Args& a, const std::vector<Args>& shapes) {
  return std::find(shapes.begin(), shapes.end(), a) != shapes.end();
}

bool ArgsAllowed(const std::string& id, const Args& a) {
  if (id == "smartctl") return SmartctlArgsAllowed(a);
  // inventory/inventory.cc: JSON first, then the text forms of older versions.
  if (id == "zpool")
    return OneOf(a,
                 {{"status", "-j", "--json-int", "-P"}, {"status", "-P", "-p"}, {"status", "-P"},
                  {"list", "-Hp", "-o", "name,size,allocated"}}) ||
           ZpoolSamplingArgsAllowed(a);
  // inventory/geom_discovery.cc (FreeBSD).
  if (id == "geom") return OneOf(a, {{"disk", "list"}, {"label", "status"}});
  if (id == "sysctl") return OneOf(a, {{"-n", "kern.disks"}});
  if (id == "diskinfo") return a.size() == 2 && a[0] == "-v" && IsDiskName(a[1]);
  if (id == "camcontrol")
    return OneOf(a, {{"devlist", "-v"}}) ||
           (a.size() == 2 && a[0] == "identify" && IsDiskName(a[1]));
  return false;
}

}  // namespace

ToolPolicy ToolPolicy::FromConfig(const ToolsConfig& tools) {
  ToolPolicy p;
  p.tools_ = {{"smartctl", tools.smartctl}, {"zpool", tools.zpool},           {"geom", tools.geom},
              {"diskinfo", tools.diskinfo}, {"camcontrol", tools.camcontrol}, {"sysctl", "sysctl"}};
  return p;
}

std::string ToolPolicy::IdFor(const std::string& executable, const Args& args) const {
  std::string first;
  for (const auto& [id, exe] : tools_) {
    if (exe != executable) continue;
    if (ArgsAllowed(id, args)) return id;
    if (first.empty()) first = id;
  }
  return first;
}

Result<std::vector<std::string>> ToolPolicy::CheckToolRequest(const std::string& tool_id,
                                                              const Args& args) const {
  auto it = tools_.find(tool_id);
  if (it == tools_.end())
    return PermissionDenied("tool '" + tool_id + "' is not on the privileged helper's list");
  if (!ArgsAllowed(tool_id, args))
    return PermissionDenied(tool_id + " " + FormatArgv(args) +
                            ": arguments not allowed by the privileged helper");
  Args argv = {it->second};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace dp
