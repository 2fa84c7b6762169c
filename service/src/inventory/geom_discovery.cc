#include "inventory/geom_discovery.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "inventory/camcontrol_parser.h"
#include "inventory/diskinfo_parser.h"
#include "inventory/drive_identity.h"
#include "inventory/geom_parser.h"
#include "inventory/pool_member_mapper.h"

namespace dp {
namespace {

Result<CommandOutput> RunTool(CommandRunner& runner, const ToolsConfig& tools,
                              std::vector<std::string> argv) {
  CommandSpec spec;
  spec.argv = std::move(argv);
  spec.timeout = std::chrono::seconds(tools.timeout_seconds);
  DP_ASSIGN_OR_RETURN(CommandOutput out, runner.Run(spec));
  if (out.exit_code != 0) {
    std::string err = out.stderr_text.substr(0, out.stderr_text.find('\n'));
    return IoError(FormatArgv(spec.argv) + ": exit status " + std::to_string(out.exit_code) +
                   (err.empty() ? "" : ": " + err));
  }
  return out;
}

bool Listed(const std::vector<std::string>& list, const std::string& name) {
  for (const auto& e : list) {
    if (e == name || e == "/dev/" + name) return true;
  }
  return false;
}

// cd (optical), md (memory disks) and zvols are not drives to watch.
bool SkippedByDefaultFreeBSD(const std::string& name) {
  for (const char* p : {"cd", "md", "zvol", "ram"}) {
    if (name.rfind(p, 0) == 0) return true;
  }
  return false;
}

std::string TransportFromName(const std::string& name) {
  if (name.rfind("nvd", 0) == 0 || name.rfind("nda", 0) == 0) return "nvme";
  if (name.rfind("ada", 0) == 0) return "sata";
  if (name.rfind("vtbd", 0) == 0) return "virtual";
  return "";
}

}  // namespace

Result<DiscoveredDevices> DiscoverGeomDrives(CommandRunner& runner, const ToolsConfig& tools,
                                             const InventoryConfig& config) {
  DiscoveredDevices out;
  std::vector<GeomDisk> disks;
  auto geom = RunTool(runner, tools, {tools.geom, "disk", "list"});
  if (geom.ok()) {
    DP_ASSIGN_OR_RETURN(disks, ParseGeomDiskList(geom->stdout_text));
  } else {
    // No geom (or it failed): kern.disks names the disks, diskinfo -v describes each.
    out.warnings.push_back(geom.status().message() + "; trying kern.disks and diskinfo");
    DP_ASSIGN_OR_RETURN(CommandOutput names, RunTool(runner, tools, {"sysctl", "-n", "kern.disks"}));
    std::istringstream ws(names.stdout_text);
    for (std::string n; ws >> n;) {
      auto info = RunTool(runner, tools, {tools.diskinfo, "-v", n});
      if (!info.ok()) {
        out.warnings.push_back(info.status().message());
        continue;
      }
      auto parsed = ParseDiskinfo(info->stdout_text);
      if (!parsed.ok()) {
        out.warnings.push_back(n + ": " + parsed.status().message());
        continue;
      }
      GeomDisk d;
      d.name = n;
      d.media_size = parsed->media_size.value_or(0);
      d.sector_size = parsed->sector_size.value_or(512);
      d.stripe_size = parsed->stripe_size.value_or(0);
      d.descr = parsed->descr;
      d.ident = parsed->ident;
      d.rotation_rpm = parsed->rotation_rpm;
      disks.push_back(std::move(d));
    }
  }

  std::map<std::string, std::string> controllers;
  if (auto devlist = RunTool(runner, tools, {tools.camcontrol, "devlist", "-v"}); devlist.ok()) {
    controllers = ParseCamcontrolDevlist(devlist->stdout_text);
  } else {
    out.warnings.push_back(devlist.status().message());
  }

  std::sort(disks.begin(), disks.end(), [](const GeomDisk& a, const GeomDisk& b) { return a.name < b.name; });
  std::set<std::string> seen_ids;
  for (const auto& g : disks) {
    if (Listed(config.exclude, g.name)) continue;
    if (SkippedByDefaultFreeBSD(g.name) && !Listed(config.include, g.name)) continue;
    if (g.media_size == 0) {
      out.warnings.push_back(g.name + ": size 0 (no medium?); skipped");
      continue;
    }
    Drive d;
    d.name = g.name;
    d.dev_path = config.dev_root + "/" + g.name;
    d.size_bytes = g.media_size;
    d.logical_block_size = g.sector_size ? g.sector_size : 512;
    d.physical_block_size = std::max(d.logical_block_size, g.stripe_size);
    d.serial = g.ident;
    d.wwn = NormaliseWwn(g.lunid);
    d.rotation_rpm = g.rotation_rpm;
    if (g.rotation_rpm) d.rotational = *g.rotation_rpm != 0;
    // descr is the SCSI vendor+product for da(4) disks ("ATA TOSHIBA MG07ACA1").
    d.model = g.descr.rfind("ATA ", 0) == 0 ? TrimField(g.descr.substr(4)) : g.descr;
    auto ctl = controllers.find(g.name);
    if (ctl != controllers.end()) {
      d.controller = ctl->second;
      d.transport = TransportFromController(ctl->second);
    }
    if (d.transport.empty()) d.transport = TransportFromName(g.name);
    if (g.name.rfind("ada", 0) == 0) {
      // ATA disks: camcontrol identify has the firmware and the untruncated model.
      if (auto id = RunTool(runner, tools, {tools.camcontrol, "identify", g.name}); id.ok()) {
        if (auto cam = ParseCamcontrolIdentify(id->stdout_text); cam.ok()) {
          if (!cam->model.empty()) d.model = cam->model;
          if (!cam->serial.empty()) d.serial = cam->serial;
          d.firmware = cam->firmware;
          if (cam->wwn) d.wwn = cam->wwn;
          if (cam->rotation_rpm) {
            d.rotation_rpm = cam->rotation_rpm;
            d.rotational = *cam->rotation_rpm != 0;
          }
          if (cam->physical_sector_size) d.physical_block_size = *cam->physical_sector_size;
        }
      } else {
        out.warnings.push_back(id.status().message());
      }
    }
    if (d.transport == "nvme") d.rotation_rpm = 0, d.rotational = false;
    d.id = MakeDriveId(d.wwn, d.model, d.serial, "/dev/" + g.name);
    if (!seen_ids.insert(d.id).second) {
      out.warnings.push_back(g.name + ": same identity " + d.id + " as another drive (multipath?); listed once");
      continue;
    }
    out.drives.push_back(std::move(d));
  }

  // Labels: gpt/zfs0 -> ada0p3, diskid/DISK-XYZ -> ada1, gptid/... -> da0p2.
  if (auto labels = RunTool(runner, tools, {tools.geom, "label", "status"}); labels.ok()) {
    for (const auto& e : ParseGlabelStatus(labels->stdout_text)) {
      out.aliases.Add("/dev/" + e.label, e.component);
      if (e.label.rfind("diskid/", 0) == 0) {
        for (auto& d : out.drives) {
          if (d.name == e.component) d.stable_paths.push_back("/dev/" + e.label);
        }
      }
    }
  } else {
    out.warnings.push_back(labels.status().message());
  }
  // Partitions and GELI providers (ada0p3, ada0p4.eli) resolve by name.
  return out;
}

}  // namespace dp
