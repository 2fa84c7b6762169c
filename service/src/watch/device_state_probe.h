// DeviceStateProbe: the daemon's DriveStateProbe (sched/deferral.h). For one
// drive it finds out, without waking it or disturbing it:
//  - gone: the drive is unknown, marked missing, or its node no longer opens
//    (NotFound, so the scheduler records the run as skipped "missing");
//  - asleep: `smartctl -n standby` through the smart module (drives smartctl
//    cannot address — loop devices, files, virtual disks — are never asleep);
//  - temperature: from that reading, else from the latest stored snapshot;
//  - busy share: the device's busy time (Linux io_ticks, like iostat %util;
//    FreeBSD devstat busy_time) over a short watch window, falling back to
//    I/O counts where none is kept (bench/device_counters.h BusyShare). Busy
//    time sees every shape of foreign I/O alike — a streaming reader, a small
//    random one, small writes. The scheduler's own jobs never overlap on a
//    drive (exclusion), so everything seen here is foreign;
//  - pool scan: scrub/resilver of each ZFS pool it belongs to, asked of zpool
//    at admission (`zpool status -s -p -P POOL`, one call per pool kept for
//    `scan_cache`), so a scrub started since the last discovery defers the
//    test; the store's record (the last discovery) where zpool cannot answer
//    and for md arrays.
//
// Owned by the composition root; runner, store and opener must outlive it.
// Thread-safe; Probe blocks for the window.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/thread_annotations.h"
#include "bench/block_device.h"
#include "config/config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "sched/deferral.h"

namespace dp {

class Store;

struct DeviceStateProbeOptions {
  // How long the device is watched for foreign I/O. Default 1s.
  std::chrono::milliseconds window{1000};
  // Ask smartctl whether the drive sleeps (and its temperature). Default true.
  bool read_smart = true;
  // How long one pool's `zpool status` answers for every drive of the pool.
  std::chrono::seconds scan_cache{60};
  // Time for that cache; null: the system clock.
  const Clock* clock = nullptr;
};

class DeviceStateProbe final : public DriveStateProbe {
 public:
  DeviceStateProbe(Config config, CommandRunner& runner, Store& store, DeviceOpener& opener,
                   DeviceStateProbeOptions options = {});

  Result<DriveState> Probe(const std::string& drive_id) override;

 private:
  // The pool's scan as zpool says now (or within scan_cache); nullopt when
  // zpool could not say.
  std::optional<PoolScan> CurrentScan(const std::string& pool);

  const Config config_;
  CommandRunner& runner_;
  Store& store_;
  DeviceOpener& opener_;
  const DeviceStateProbeOptions options_;
  struct AskedScan {
    MonoTime at;
    std::optional<PoolScan> scan;
  };
  Mutex mu_;
  std::map<std::string, AskedScan> scans_ GUARDED_BY(mu_);  // by pool name
};

// Whether smartctl can be asked about the drive at all (not a loop device,
// a file or a virtual disk).
bool SmartApplies(const Drive& drive);

}  // namespace dp
