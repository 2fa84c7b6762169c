#include "watch/device_state_probe.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "base/log.h"
#include "bench/device_counters.h"
#include "inventory/zpool_status_parser.h"
#include "runs/smart_jobs.h"
#include "store/store.h"

namespace dp {

bool SmartApplies(const Drive& drive) {
  if (drive.transport == "file" || drive.transport == "virtual") return false;
  std::string base = std::filesystem::path(drive.dev_path).filename().string();
  for (const char* p : {"loop", "ram", "zram", "md", "dm-", "nbd"})
    if (base.rfind(p, 0) == 0) return false;
  return true;
}

std::optional<PoolScan> DeviceStateProbe::CurrentScan(const std::string& pool) {
  static const SystemClock system_clock;
  const Clock& clock = options_.clock ? *options_.clock : system_clock;
  const MonoTime now = clock.Monotonic();
  {
    MutexLock lock(mu_);
    auto it = scans_.find(pool);
    if (it != scans_.end() && now - it->second.at < options_.scan_cache) return it->second.scan;
  }
  std::optional<PoolScan> scan;
  CommandSpec spec;
  spec.argv = {config_.tools.zpool, "status", "-s", "-p", "-P", pool};
  spec.timeout = std::chrono::seconds(config_.tools.timeout_seconds);
  auto out = runner_.Run(spec);
  if (out.ok() && out->exit_code == 0) {
    auto parsed = ParseZpoolStatusText(out->stdout_text);
    if (parsed.ok()) {
      for (Pool& p : *parsed)
        if (p.name == pool) scan = std::move(p.scan);
    } else {
      LogDebug("probe: zpool status " + pool + ": " + parsed.status().message());
    }
  } else {
    LogDebug("probe: zpool status " + pool + ": " +
             (out.ok() ? "exit status " + std::to_string(out->exit_code) : out.status().ToString()));
  }
  MutexLock lock(mu_);
  scans_[pool] = AskedScan{now, scan};
  return scan;
}

DeviceStateProbe::DeviceStateProbe(Config config, CommandRunner& runner, Store& store,
                                   DeviceOpener& opener, DeviceStateProbeOptions options)
    : config_(std::move(config)),
      runner_(runner),
      store_(store),
      opener_(opener),
      options_(options) {}

Result<DriveState> DeviceStateProbe::Probe(const std::string& drive_id) {
  DP_ASSIGN_OR_RETURN(std::optional<Drive> found, store_.GetDrive(drive_id));
  if (!found || !found->present) return NotFound("drive " + drive_id + " is not present");
  const Drive& drive = *found;
  DriveState state;

  // Asleep first: a sleeping drive is left alone (its node is not opened).
  if (options_.read_smart && SmartApplies(drive)) {
    auto reading = ReadDriveSmart(config_, runner_, drive);
    if (reading.ok()) {
      state.asleep = reading->asleep;
      if (!reading->asleep) {
        state.temperature_c = reading->snapshot.temperature_c;
        state.self_test_running = reading->snapshot.self_test_running;
      }
    } else {
      LogDebug("probe: " + drive.name + ": SMART: " + reading.status().ToString());
    }
  }
  if (!state.temperature_c) {
    auto last = store_.LatestSmart(drive_id);
    if (last.ok() && *last) state.temperature_c = (*last)->temperature_c;
  }

  // Pool scan: asked now of each ZFS pool the drive is in (a scrub may have
  // started after the last discovery); as last recorded otherwise.
  auto pools = store_.LatestPools();
  if (pools.ok()) {
    // Current when zpool answered for every pool of the drive: then a scan
    // the last discovery saw but that has ended since defers nothing.
    bool asked = false, answered = true;
    for (const Pool& pool : *pools) {
      if (!HasMember(pool, drive_id)) continue;
      PoolScan scan = pool.scan;
      std::optional<PoolScan> now;
      if (pool.kind == "zfs") now = CurrentScan(pool.name);
      asked = true;
      answered = answered && now.has_value();
      if (now) scan = std::move(*now);
      if (scan.state == "in_progress") {
        state.pool_scan = scan.function;
        break;
      }
    }
    state.pool_scan_current = asked && answered;
  }

  if (state.asleep) return state;

  // Gone? Then busy share over the window.
  auto device = opener_.OpenReadOnly(drive.dev_path);
  if (!device.ok()) {
    // Gone, or a node left without a medium (a detached loop device, an
    // ejected disk: "is empty (0 bytes)"): the drive is not there to test.
    if (device.status().code() == StatusCode::kNotFound ||
        device.status().code() == StatusCode::kInvalidArgument)
      return NotFound(drive.name + ": " + device.status().message());
    return device.status();
  }
  // A detached loop device or an ejected medium still has its node, but no size.
  if ((*device)->is_device() && (*device)->info().size_bytes == 0)
    return NotFound(drive.name + ": " + drive.dev_path + " has no medium (size 0)");
  // Busy share from the same counters the bench's contention guard reads:
  // busy time (io_ticks / devstat busy_time), else requests.
  const std::string key = (*device)->stats_key();
  if (key.empty()) return state;  // nothing known to watch
  const auto t0 = std::chrono::steady_clock::now();
  auto counters0 = ReadDeviceCounters(key);
  std::this_thread::sleep_for(options_.window);
  auto counters1 = ReadDeviceCounters(key);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (counters0.ok() && counters1.ok()) {
    state.busy_share = BusyShare(*counters0, *counters1, seconds);
  } else if (counters0.status().code() == StatusCode::kNotFound ||
             counters1.status().code() == StatusCode::kNotFound) {
    return NotFound(drive.name + ": no I/O counters (device gone?)");
  }
  return state;
}

}  // namespace dp
