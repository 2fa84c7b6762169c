// Discovery: the glue that asks inventory and smart what is on the machine
// and saves it in the Store: drives (found ones upserted,
// vanished ones marked missing, never deleted), pools and their membership,
// and one SMART snapshot per drive (a sleeping drive is skipped, not woken).
// RunDiscovery is one pass; DiscoveryService runs it at start-up and then
// every inventory.interval_seconds on its own thread.
//
// The SMART reads and self-tests the scheduler's jobs run are in
// runs/smart_jobs.h; discovery's pass reads SMART through them too.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/periodic_thread.h"
#include "base/result.h"
#include "base/thread_annotations.h"
#include "config/config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "smart/smartctl_parser.h"
#include "watch/tool_pass.h"
#include "store/store.h"

namespace dp {

class AlertService;  // alert/alert_service.h

struct DiscoveryOptions {
  bool read_smart = true;  // false: drives and pools only (fast)
  // The daemon's alert service: a drive whose firmware changed is
  // re-baselined through it (runs/rebaseline.h). Null: the change is only
  // reported in the warnings (no mark, no alert closed).
  AlertService* alerts = nullptr;
};

struct DiscoveryReport {
  std::int64_t at = 0;                // unix seconds of this pass
  std::vector<Drive> drives;          // as saved (SMART may have filled firmware/rpm)
  std::vector<Pool> pools;            // members mapped to drive ids
  int smart_read = 0;                 // snapshots saved
  int smart_asleep = 0;               // skipped: asleep
  int smart_failed = 0;               // smartctl errors (in warnings)
  std::vector<std::string> warnings;  // unmappable members, tool failures, SMART errors
  // What this pass could not read, by drive id ("SMART: smartctl timed out
  // after 60 s; killed"), and why the pools were not read ("" = read).
  std::map<std::string, std::string> drive_problems;
  std::string pools_problem;
  // What this box cannot see and how to let it (AccessNotes): no drives at
  // all, drives the kernel lists without a device node here, SMART refused.
  std::vector<std::string> access;
  // Drives whose firmware version changed since the last pass: each got a
  // re-baseline mark (runs/rebaseline.h), reason "firmware changed from X to Y".
  std::vector<RebaselineMark> rebaselined;

  // "4 drives, 1 pool; SMART: 3 read, 1 asleep, 0 failed" (+ "; 1 drive
  // re-baselined (firmware changed)" when one was)
  std::string Summary() const;
};

// True in diskpulse's container image, which sets DISKPULSE_CONTAINER=1
// (packaging/container/Containerfile). Declared by the image rather than
// guessed from /.dockerenv or /run/.containerenv: a build or CI machine that
// is itself a container must not get the notes meant for the image's users.
bool InContainer();

// Sentences for the health endpoint and the page on what discovery could not
// use: in a container sysfs shows every disk of the host while /dev holds only
// the devices passed in, and smartctl needs a capability the default set
// lacks, so each note says how to pass the drive or the capability in.
std::vector<std::string> AccessNotes(const DiscoveryReport& report, bool in_container);

// The container's notes on ZFS: the host has the module (SYSFS/module/zfs)
// but /dev/zfs was not passed in (pools unseen), or the module's version
// (SYSFS/module/zfs/version, "2.2.4-1") differs in major.minor from the
// image's zpool (`userland`, "2.3"; the image's DISKPULSE_ZFS_USERLAND).
// Nothing when the host has no ZFS or the versions agree.
std::vector<std::string> ZfsAccessNotes(const std::string& sysfs_root, const std::string& dev_root,
                                        const std::string& userland);

// One pass: inventory (drives, pools, member mapping), SMART for every drive
// when options.read_smart, then the store; a drive whose firmware changed is
// re-baselined (its slowdown/trend alerts resolve, the change is logged).
// Errors: discovery of drives failed (nothing is saved or marked missing), or
// the store failed.
Result<DiscoveryReport> RunDiscovery(const Config& config, CommandRunner& runner, Store& store,
                                     const Clock& clock, const DiscoveryOptions& options = {});

// Runs RunDiscovery at Start() and then every config.inventory.interval_seconds
// (or sooner after RequestRun(): the daemon asks for one on SIGHUP) on its own thread, logging a one-line summary
// and the warnings. Thread-safe. The runner, store and clock must outlive it.
// on_pass (optional) is called on the service's thread after every successful
// pass with its report (the daemon hands the inventory to the scheduler).
class DiscoveryService {
 public:
  using PassFn = std::function<void(const DiscoveryReport&)>;
  DiscoveryService(Config config, CommandRunner& runner, Store& store, const Clock& clock,
                   PassFn on_pass = {}, AlertService* alerts = nullptr);
  ~DiscoveryService();
  DiscoveryService(const DiscoveryService&) = delete;
  DiscoveryService& operator=(const DiscoveryService&) = delete;

  void Start();
  // Wakes the thread for a pass now (e.g. after a config reload or an API call).
  void RequestRun();
  // Waits for a pass in progress to finish. Idempotent.
  void Stop();

  // Passes completed since Start (successful or not), and the last outcome.
  int passes() const;
  Status last_status() const;

  // What the newest pass left unread, for the health endpoint: a hung or
  // failing tool marks its drive or the pools until a pass reads them.
  struct Health {
    int passes = 0;
    std::int64_t last_at = 0;  // unix seconds of the newest pass; 0 = none yet
    Status last_status;        // the newest pass as a whole
    std::map<std::string, std::string> drive_problems;
    std::string pools_problem;
    std::vector<std::string> access;
  };
  Health health() const;

 private:
  void Pass();

  const ToolPass tools_;
  const PassFn on_pass_;
  AlertService* const alerts_;
  mutable Mutex mu_;
  int passes_ GUARDED_BY(mu_) = 0;
  Status last_status_ GUARDED_BY(mu_);
  std::int64_t last_at_ GUARDED_BY(mu_) = 0;
  std::map<std::string, std::string> drive_problems_ GUARDED_BY(mu_);
  std::string pools_problem_ GUARDED_BY(mu_);
  std::vector<std::string> access_ GUARDED_BY(mu_);
  PeriodicThread thread_;
};

}  // namespace dp
