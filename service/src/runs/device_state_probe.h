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
//  - pool scan: scrub/resilver of its pool as last recorded in the store.
//
// Owned by the composition root; runner, store and opener must outlive it.
// Thread-safe (every call is independent); Probe blocks for the window.
#pragma once

#include <chrono>

#include "base/command_runner.h"
#include "bench/block_device.h"
#include "config/config.h"
#include "model/drive.h"
#include "sched/deferral.h"

namespace dp {

class Store;

struct DeviceStateProbeOptions {
  // How long the device is watched for foreign I/O. Default 1s.
  std::chrono::milliseconds window{1000};
  // Ask smartctl whether the drive sleeps (and its temperature). Default true.
  bool read_smart = true;
};

class DeviceStateProbe final : public DriveStateProbe {
 public:
  DeviceStateProbe(Config config, CommandRunner& runner, Store& store, DeviceOpener& opener,
                   DeviceStateProbeOptions options = {});

  Result<DriveState> Probe(const std::string& drive_id) override;

 private:
  const Config config_;
  CommandRunner& runner_;
  Store& store_;
  DeviceOpener& opener_;
  const DeviceStateProbeOptions options_;
};

// Whether smartctl can be asked about the drive at all (not a loop device,
// a file or a virtual disk).
bool SmartApplies(const Drive& drive);

}  // namespace dp
