#include "inventory/inventory.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "inventory/geom_discovery.h"
#include "inventory/mdstat_parser.h"
#include "inventory/pool_member_mapper.h"
#include "inventory/zpool_get_parser.h"
#include "inventory/zpool_status_parser.h"

namespace dp {
namespace fs = std::filesystem;
namespace {

std::string FirstLine(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find('\n', b) - b);
}

Result<CommandOutput> RunZpool(CommandRunner& runner, const Config& config, std::vector<std::string> args) {
  CommandSpec spec;
  spec.argv = {config.tools.zpool};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::seconds(config.tools.timeout_seconds);
  return runner.Run(spec);
}

bool NoPools(const CommandOutput& out) {
  return out.stdout_text.find("no pools available") != std::string::npos ||
         out.stderr_text.find("no pools available") != std::string::npos;
}

}  // namespace

Result<DiscoveredDevices> DiscoverDrives(const Config& config, CommandRunner& runner) {
  DP_ASSIGN_OR_RETURN(Platform platform, ParsePlatform(config.inventory.platform));
  InventoryConfig inv = config.inventory;
  for (const auto& t : config.targets) inv.include.push_back(fs::path(t.path).filename().string());
  Result<DiscoveredDevices> found = platform == Platform::kFreeBSD
                                        ? DiscoverGeomDrives(runner, config.tools, inv)
                                        : DiscoverSysfsDrives(inv);
  if (!found.ok()) return found.status();
  DiscoveredDevices out = std::move(found).value();
  for (const auto& t : config.targets) {
    std::string base = fs::path(t.path).filename().string();
    std::string name = t.name.empty() ? base : t.name;
    bool matched = false;
    for (auto& d : out.drives) {
      if (d.name == base || d.dev_path == t.path) {
        d.explicit_target = true;
        d.name = name;
        matched = true;
      }
    }
    if (matched) continue;
    // A file or a device discovery does not know: watched by path.
    Drive d;
    d.dev_path = t.path;
    d.name = name;
    d.explicit_target = true;
    d.id = MakeDriveId(std::nullopt, "", "", t.path);
    std::error_code ec;
    auto size = fs::file_size(t.path, ec);
    if (!ec) d.size_bytes = size;
    d.transport = fs::is_regular_file(t.path, ec) ? "file" : "";
    out.drives.push_back(std::move(d));
  }
  return out;
}

Result<std::vector<std::string>> ListPresentDisks(const Config& config, CommandRunner& runner) {
  DP_ASSIGN_OR_RETURN(Platform platform, ParsePlatform(config.inventory.platform));
  std::vector<std::string> names;
  if (platform == Platform::kFreeBSD && HostPlatform() == Platform::kFreeBSD) {
    DP_ASSIGN_OR_RETURN(std::vector<std::string> listed, KernelDiskNames());
    const InventoryConfig& inv = config.inventory;
    auto named = [](const std::vector<std::string>& list, const std::string& n) {
      return std::find(list.begin(), list.end(), n) != list.end() ||
             std::find(list.begin(), list.end(), "/dev/" + n) != list.end();
    };
    for (std::string& n : listed) {
      if (named(inv.exclude, n)) continue;
      const bool skipped = n.starts_with("cd") || n.starts_with("md") || n.starts_with("zvol") ||
                           n.starts_with("ram");
      if (skipped && !named(inv.include, n)) continue;
      names.push_back(std::move(n));
    }
  } else {
    DP_ASSIGN_OR_RETURN(DiscoveredDevices found, DiscoverDrives(config, runner));
    for (const Drive& d : found.drives) names.push_back(DeviceBasename(d.dev_path));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Result<std::vector<Pool>> ReadPools(const Config& config, CommandRunner& runner,
                                    std::vector<std::string>* warnings) {
  std::vector<std::string> local;
  std::vector<std::string>& warn = warnings ? *warnings : local;
  DP_ASSIGN_OR_RETURN(Platform platform, ParsePlatform(config.inventory.platform));
  std::vector<Pool> pools;

  auto json = RunZpool(runner, config, {"status", "-j", "--json-int", "-P"});
  bool have_zfs = true;
  if (!json.ok() && json.status().code() == StatusCode::kNotFound &&
      json.status().message() == config.tools.zpool + " not found") {
    warn.push_back("zpool not found: ZFS pools not read");
    have_zfs = false;
  } else if (!json.ok() && json.status().code() == StatusCode::kTimeout) {
    return json.status();
  }
  bool done = false;
  if (have_zfs && json.ok() && json->exit_code == 0 && json->stdout_text.find('{') != std::string::npos) {
    auto parsed = ParseZpoolStatusJson(json->stdout_text);
    if (parsed.ok()) {
      pools = std::move(parsed).value();
      done = true;
    } else {
      warn.push_back("zpool status -j: " + parsed.status().message() + "; reading the text output");
    }
  }
  if (have_zfs && !done) {
    auto text = RunZpool(runner, config, {"status", "-P", "-p"});
    if (text.ok() && text->exit_code != 0 && !NoPools(*text)) {
      // zpools without -p (illumos, old FreeBSD) reject it.
      auto plain = RunZpool(runner, config, {"status", "-P"});
      if (plain.ok()) text = std::move(plain);
    }
    if (!text.ok()) {
      if (text.status().code() != StatusCode::kNotFound) return text.status();
      warn.push_back(text.status().message() + ": ZFS pools not read");
    } else if (NoPools(*text)) {
      // nothing
    } else if (text->exit_code != 0) {
      warn.push_back("zpool status: exit status " + std::to_string(text->exit_code) + ": " +
                     FirstLine(text->stderr_text.empty() ? text->stdout_text : text->stderr_text));
    } else {
      DP_ASSIGN_OR_RETURN(pools, ParseZpoolStatusText(text->stdout_text, &warn));
    }
  }

  // Space for the capacity alert. Optional: a zpool that cannot answer
  // (or a recording without it) leaves the pools' space unknown.
  if (have_zfs && !pools.empty()) {
    auto list = RunZpool(runner, config, {"list", "-Hp", "-o", "name,size,allocated"});
    if (list.ok() && list->exit_code == 0) {
      auto space = ParseZpoolListSpace(list->stdout_text);
      if (!space.ok()) {
        warn.push_back(space.status().message());
      } else {
        for (const ZpoolSpace& sp : *space)
          for (Pool& p : pools)
            if (p.kind == "zfs" && p.name == sp.pool) {
              p.size_bytes = sp.size_bytes;
              p.allocated_bytes = sp.allocated_bytes;
            }
      }
    }
  }

  if (platform == Platform::kLinux) {
    fs::path mdstat = fs::path(config.inventory.proc_root) / "mdstat";
    std::ifstream in(mdstat);
    if (in) {
      std::ostringstream ss;
      ss << in.rdbuf();
      auto md = ParseMdstat(ss.str());
      if (md.ok()) {
        for (auto& p : *md) pools.push_back(std::move(p));
      } else {
        warn.push_back(mdstat.string() + ": " + md.status().message());
      }
    }
  }
  return pools;
}

Result<Inventory> ReadInventory(const Config& config, CommandRunner& runner) {
  Inventory inv;
  DP_ASSIGN_OR_RETURN(inv.platform, ParsePlatform(config.inventory.platform));
  DP_ASSIGN_OR_RETURN(DiscoveredDevices devices, DiscoverDrives(config, runner));
  inv.drives = std::move(devices.drives);
  inv.aliases = std::move(devices.aliases);
  inv.warnings = std::move(devices.warnings);
  auto pools = ReadPools(config, runner, &inv.warnings);
  if (pools.ok()) {
    inv.pools = std::move(pools).value();
  } else {
    inv.pools_status = pools.status();
    inv.warnings.push_back("pools not read: " + pools.status().ToString());
  }
  for (auto& w : MapPoolMembers(inv.pools, inv.drives, inv.aliases)) inv.warnings.push_back(std::move(w));
  return inv;
}

Config ConfigForReplay(const Config& config, const std::string& dir) {
  Config c = config;
  fs::path d(dir);
  c.replay_dir = dir;
  c.inventory.sysfs_root = (d / "sys").string();
  c.inventory.dev_root = (d / "dev").string();
  c.inventory.udev_data_dir = (d / "udev").string();
  c.inventory.proc_root = (d / "proc").string();
  std::ifstream in(d / "platform");
  std::string platform;
  if (in >> platform && (platform == "linux" || platform == "freebsd")) c.inventory.platform = platform;
  return c;
}

}  // namespace dp
