// diskpulse record DIR [-c FILE] [--no-smart]: runs every discovery, pool and
// SMART command once on this machine, and the daemon's ZFS sampling commands
// for each ZFS pool (zpool iostat -l and -w, status -s, get sit_out), through a
// RecordingCommandRunner that saves each argv with its stdout, stderr and exit code under
// DIR/commands, and copies the files Linux discovery reads (sysfs attributes, /dev/disk links, udev
// entries, /proc/mdstat) under DIR. `--replay DIR` (CLI and daemon) plays it back: a bug report
// becomes a test, a NAS can be shown on a laptop. Nothing is written to any device; only attribute
// files are read. Exit: 0 recorded, 1 recorded with problems (listed), 2 usage error or DIR
// unusable.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "base/recording_command_runner.h"
#include "cli/commands.h"
#include "cli/local_tools.h"
#include "inventory/file_tree_snapshot.h"
#include "inventory/inventory.h"
#include "runs/smart_jobs.h"
#include "watch/zfs_latency_sampler.h"

namespace dp::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: diskpulse record DIR [-c FILE] [--no-smart]\n"
    "\n"
    "Records the output of every tool diskpulse runs to discover drives, pools\n"
    "and SMART and to sample ZFS's own signals (about 5 s per pool) on this\n"
    "machine into DIR (which must be empty or absent), for a\n"
    "bug report or a demonstration. Replay it with --replay DIR. Run as root.\n"
    "The recording holds serial numbers and WWNs: review it before sharing.\n"
    "  -c, --config   configuration file (tools, inventory include/exclude)\n"
    "  --no-smart     skip the SMART reads\n";

constexpr const char* kReadme =
    "diskpulse recording\n"
    "===================\n"
    "Made by `diskpulse record`. Replay with `diskpulse drives --replay DIR`,\n"
    "`diskpulse pools --replay DIR`, `diskpulse smart /dev/X --replay DIR` or\n"
    "`diskpulsed --replay DIR`.\n"
    "\n"
    "commands/NNNN/   one folder per tool run: argv (one argument per line),\n"
    "                 stdout, stderr, result (exit_code, or the runner's error)\n"
    "sys/ dev/ udev/  the sysfs attributes, /dev/disk links and udev entries\n"
    "proc/            Linux discovery reads (Linux only)\n"
    "platform         linux or freebsd\n"
    "\n"
    "Files may be edited by hand (e.g. to anonymise serial numbers).\n";

}  // namespace

int RunRecordCommand(const Args& args) {
  std::vector<std::string> rest;
  auto options = ParseLocalOptions(args, rest);
  if (!options.ok()) return UsageError("record", options.status().message(), kUsage);
  if (options->help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::string dir;
  bool smart = true;
  for (const auto& a : rest) {
    if (a == "--no-smart") {
      smart = false;
    } else if (!a.empty() && a[0] != '-' && dir.empty()) {
      dir = a;
    } else {
      std::fprintf(stderr, "diskpulse record: unexpected argument '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  if (dir.empty() || !options->replay_dir.empty()) {
    std::fprintf(stderr, "diskpulse record: give one DIR (and no --replay)\n%s", kUsage);
    return 2;
  }
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    std::fprintf(stderr, "diskpulse record: %s is not empty; give a new folder\n", dir.c_str());
    return 2;
  }
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "diskpulse record: %s: %s\n", dir.c_str(), ec.message().c_str());
    return 2;
  }
  auto config = LoadLocalConfig(*options);
  if (!config.ok()) {
    std::fprintf(stderr, "diskpulse record: %s\n", config.status().message().c_str());
    return 2;
  }
  auto platform = ParsePlatform(config->inventory.platform);
  if (!platform.ok()) {
    std::fprintf(stderr, "diskpulse record: %s\n", platform.status().message().c_str());
    return 2;
  }
  std::ofstream(fs::path(dir) / "README.txt") << kReadme;
  std::vector<std::string> problems;
  if (Status s = SnapshotFileTrees(config->inventory, *platform, dir); !s.ok()) {
    problems.push_back("file trees: " + s.ToString());
  }

  PosixCommandRunner real;
  RecordingCommandRunner recorder(real, dir);
  auto inv = ReadInventory(*config, recorder);
  int smart_read = 0;
  if (!inv.ok()) {
    problems.push_back("discovery: " + inv.status().ToString());
  } else {
    for (const auto& w : inv->warnings) problems.push_back(w);
    // What the daemon samples between tests, so its replay has it too. A
    // zpool too old for sit_out is no problem, as in the daemon.
    for (const auto& w : ReadZfsPools(*config, recorder, inv->pools)) problems.push_back(w);
    if (smart) {
      for (const auto& d : inv->drives) {
        if (d.transport == "file" || d.transport == "virtual") continue;
        auto r = ReadDriveSmart(*config, recorder, d);
        if (r.ok()) ++smart_read;
        else problems.push_back(d.name + ": SMART: " + r.status().ToString());
      }
    }
  }
  for (const auto& s : recorder.write_errors()) problems.push_back("writing: " + s.ToString());
  std::printf("recorded %d commands in %s (%zu drives, %zu pools, %d SMART reports)\n",
              recorder.count(), dir.c_str(), inv.ok() ? inv->drives.size() : 0,
              inv.ok() ? inv->pools.size() : 0, smart_read);
  for (const auto& p : problems) std::fprintf(stderr, "note: %s\n", p.c_str());
  return problems.empty() ? 0 : 1;
}

}  // namespace dp::cli
