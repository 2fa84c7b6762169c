#include "watch/discovery.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "base/log.h"
#include "base/strings.h"
#include "inventory/inventory.h"
#include "inventory/pool_member_mapper.h"
#include "runs/rebaseline.h"
#include "runs/smart_jobs.h"
#include "store/store.h"

namespace dp {
namespace {

// Whether two firmware versions name the same firmware. Sources differ in
// length: Linux's SCSI "rev" of an ATA disk is the last 4 characters of the
// 8-character ATA revision ("0A81" of "81.00A81"), udev and smartctl give it
// whole; so one being a suffix of the other (case and spacing folded) is the
// same version.
bool SameFirmware(const std::string& a, const std::string& b) {
  const std::string x = FoldName(a), y = FoldName(b);
  return x.size() <= y.size() ? y.ends_with(x) : x.ends_with(y);
}

std::string Plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string DiscoveryReport::Summary() const {
  return Plural(static_cast<int>(drives.size()), "drive", "drives") + ", " +
         Plural(static_cast<int>(pools.size()), "pool", "pools") + "; SMART: " +
         std::to_string(smart_read) + " read, " + std::to_string(smart_asleep) + " asleep, " +
         std::to_string(smart_failed) + " failed" +
         (rebaselined.empty()
              ? ""
              : "; " + Plural(static_cast<int>(rebaselined.size()), "drive", "drives") +
                    " re-baselined (firmware changed)");
}

bool InContainer() {
  const char* v = std::getenv("DISKPULSE_CONTAINER");
  return v && std::string_view(v) == "1";
}

std::vector<std::string> AccessNotes(const DiscoveryReport& report, bool in_container) {
  // On a host, discovery's warnings and the drive list say it all; a
  // container is where drives and capabilities are missing unless passed.
  std::vector<std::string> notes;
  if (!in_container) return notes;
  if (report.drives.empty()) {
    notes.push_back(
        "No drives are visible in this container: pass each drive in with --device /dev/sdX "
        "(compose: devices:); diskpulse only reads them.");
    return notes;
  }
  std::string missing;
  std::size_t n = 0;
  for (const Drive& d : report.drives) {
    std::error_code ec;
    if (d.transport == "file" || d.dev_path.empty() || std::filesystem::exists(d.dev_path, ec))
      continue;
    missing += (missing.empty() ? "" : ", ") + d.dev_path;
    ++n;
  }
  if (n > 0) {
    notes.push_back(std::to_string(n) + " of " + std::to_string(report.drives.size()) +
                    " drives have no device node in this container (" + missing +
                    "): pass them in with --device, or leave them out with inventory.exclude.");
  }
  // Only refusals: a drive smartctl cannot drive at all (a loop device) is
  // not a missing capability.
  std::size_t refused = 0;
  for (const auto& [id, problem] : report.drive_problems) {
    if (problem.find("ermission denied") != std::string::npos ||
        problem.find("not permitted") != std::string::npos)
      ++refused;
  }
  if (refused > 0) {
    notes.push_back("SMART was refused for " + std::to_string(refused) +
                    " drives: in a container smartctl needs --cap-add SYS_RAWIO (NVMe drives "
                    "also SYS_ADMIN); benchmarks work without.");
  }
  return notes;
}

std::vector<std::string> ZfsAccessNotes(const std::string& sysfs_root, const std::string& dev_root,
                                        const std::string& userland) {
  std::vector<std::string> notes;
  std::error_code ec;
  const std::filesystem::path module = std::filesystem::path(sysfs_root) / "module" / "zfs";
  if (!std::filesystem::exists(module, ec)) return notes;
  if (!std::filesystem::exists(std::filesystem::path(dev_root) / "zfs", ec)) {
    notes.push_back("The host has ZFS but this container has no /dev/zfs: pass it in with "
                    "--device /dev/zfs (compose: devices:) to read the pools; drives are "
                    "tested without it.");
    return notes;
  }
  std::ifstream in(module / "version");
  std::string kernel;
  std::getline(in, kernel);
  const auto major_minor = [](const std::string& v) {
    const auto first = v.find('.');
    return first == std::string::npos ? v : v.substr(0, v.find_first_of(".-", first + 1));
  };
  if (kernel.empty() || userland.empty() || major_minor(kernel) == major_minor(userland))
    return notes;
  notes.push_back("The host's ZFS module is " + kernel + " and this image's zpool is " + userland +
                  ": OpenZFS supports only matching versions, so pool states may be misread "
                  "(a newer zpool on an older module can mark vdevs \"(non-allocating)\"); "
                  "compare with `zpool status` on the host.");
  return notes;
}

Result<DiscoveryReport> RunDiscovery(const Config& config, CommandRunner& runner, Store& store,
                                     const Clock& clock, const DiscoveryOptions& options) {
  DiscoveryReport report;
  report.at = ToUnixSeconds(clock.Now());
  DP_ASSIGN_OR_RETURN(DiscoveredDevices devices, DiscoverDrives(config, runner));
  report.drives = std::move(devices.drives);
  report.warnings = std::move(devices.warnings);

  std::vector<std::string> pool_warnings;
  auto pools = ReadPools(config, runner, &pool_warnings);
  for (auto& w : pool_warnings) report.warnings.push_back(std::move(w));
  if (pools.ok()) {
    report.pools = std::move(pools).value();
    for (auto& w : MapPoolMembers(report.pools, report.drives, devices.aliases)) {
      report.warnings.push_back(std::move(w));
    }
  } else {
    report.pools_problem = "pools not read: " + pools.status().ToString();
    report.warnings.push_back(report.pools_problem);
  }

  std::vector<std::pair<std::size_t, SmartReading>> readings;
  if (options.read_smart) {
    for (std::size_t i = 0; i < report.drives.size(); ++i) {
      Drive& d = report.drives[i];
      if (d.transport == "file" || d.transport == "virtual") continue;  // no SMART there
      auto r = ReadDriveSmart(config, runner, d);
      if (!r.ok()) {
        ++report.smart_failed;
        report.drive_problems[d.id] = "SMART: " + r.status().ToString();
        report.warnings.push_back(d.name + ": " + report.drive_problems[d.id]);
        continue;
      }
      if (r->asleep) {
        ++report.smart_asleep;
        continue;
      }
      // Fill what inventory did not know; identity fields stay inventory's.
      const SmartSnapshot& s = r->snapshot;
      if (d.firmware.empty()) d.firmware = s.firmware;
      if (!d.rotation_rpm && s.rotation_rpm) d.rotation_rpm = s.rotation_rpm;
      readings.emplace_back(i, std::move(r).value());
    }
  }

  report.access = AccessNotes(report, InContainer());
  if (InContainer()) {
    const char* userland = std::getenv("DISKPULSE_ZFS_USERLAND");
    for (auto& n : ZfsAccessNotes(config.inventory.sysfs_root, config.inventory.dev_root,
                                  userland ? userland : ""))
      report.access.push_back(std::move(n));
  }

  // A firmware update can change a drive's performance: a drive whose
  // firmware version changed since the last pass is re-baselined. A pass that
  // could not read the version (asleep, no udev) keeps the known one.
  std::vector<RebaselineMark> firmware_changes;
  for (auto& d : report.drives) {
    DP_ASSIGN_OR_RETURN(std::optional<Drive> known, store.GetDrive(d.id));
    if (!known || known->firmware.empty()) continue;
    if (d.firmware.empty()) {
      d.firmware = known->firmware;
    } else if (SameFirmware(known->firmware, d.firmware)) {
      // Keep the whole version rather than Linux's 4-character rev of it.
      if (d.firmware.size() < known->firmware.size()) d.firmware = known->firmware;
    } else {
      RebaselineMark mark;
      mark.drive_id = d.id;
      mark.at = report.at;
      mark.reason = "firmware changed from " + known->firmware + " to " + d.firmware;
      mark.who = "discovery";
      LogInfo("discovery: " + d.name + " (" + d.id + "): " + mark.reason + "; re-baselining");
      firmware_changes.push_back(std::move(mark));
    }
  }

  std::vector<std::string> ids;
  for (const auto& d : report.drives) {
    DP_RETURN_IF_ERROR(store.UpsertDrive(d, report.at));
    ids.push_back(d.id);
  }
  DP_RETURN_IF_ERROR(store.MarkMissingExcept(ids, report.at));
  if (pools.ok()) DP_RETURN_IF_ERROR(store.RecordPools(report.pools, report.at));
  for (RebaselineMark& mark : firmware_changes) {
    // Without the daemon's alert service nothing could close the drive's
    // alerts under the lock that judges runs: the change is only reported.
    if (!options.alerts) {
      report.warnings.push_back(mark.drive_id + ": " + mark.reason +
                                "; not re-baselined: no alert service in this pass");
      continue;
    }
    auto done = RequestRebaseline(*options.alerts, mark);
    if (!done.ok()) {
      report.warnings.push_back(mark.drive_id + ": re-baseline after a firmware change: " +
                                done.status().ToString());
      continue;
    }
    report.rebaselined.push_back(done->mark);
  }
  for (const auto& [i, reading] : readings) {
    Status s = SaveDriveSmart(store, report.drives[i], reading, report.at);
    if (s.ok()) {
      ++report.smart_read;
    } else if (s.code() == StatusCode::kFailedPrecondition) {
      ++report.smart_failed;
      report.drive_problems[report.drives[i].id] = "SMART: " + s.message();
      report.warnings.push_back(s.message());
    } else {
      return s;
    }
  }
  return report;
}

DiscoveryService::DiscoveryService(Config config, CommandRunner& runner, Store& store,
                                   const Clock& clock, PassFn on_pass, AlertService* alerts)
    : tools_{std::move(config), runner, store, clock},
      on_pass_(std::move(on_pass)),
      alerts_(alerts) {}

DiscoveryService::~DiscoveryService() { Stop(); }

void DiscoveryService::Start() {
  thread_.Start(std::chrono::seconds(tools_.config.inventory.interval_seconds),
                [this] { Pass(); });
}

void DiscoveryService::RequestRun() { thread_.Wake(); }

void DiscoveryService::Stop() { thread_.Stop(); }

int DiscoveryService::passes() const {
  MutexLock lock(mu_);
  return passes_;
}

Status DiscoveryService::last_status() const {
  MutexLock lock(mu_);
  return last_status_;
}

DiscoveryService::Health DiscoveryService::health() const {
  MutexLock lock(mu_);
  return Health{passes_, last_at_, last_status_, drive_problems_, pools_problem_, access_};
}

void DiscoveryService::Pass() {
  DiscoveryOptions options;
  options.alerts = alerts_;
  auto report = RunDiscovery(tools_.config, tools_.runner, tools_.store, tools_.clock, options);
  Status status = report.ok() ? Status::Ok() : report.status();
  if (report.ok()) {
    LogInfo("discovery: " + report->Summary());
    for (const auto& w : report->warnings) LogWarning("discovery: " + w);
    if (on_pass_) on_pass_(*report);
  } else {
    LogError("discovery failed: " + status.ToString());
  }
  MutexLock lock(mu_);
  ++passes_;
  last_status_ = status;
  last_at_ = ToUnixSeconds(tools_.clock.Now());
  // A failed pass read nothing: what the previous one left unread stays.
  if (report.ok()) {
    drive_problems_ = report->drive_problems;
    pools_problem_ = report->pools_problem;
    access_ = report->access;
  }
}

}  // namespace dp
