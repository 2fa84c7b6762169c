// PresenceWatch: the cheap look between discovery passes that makes a pulled
// drive or a degraded pool known in minutes rather than at the next hourly
// pass. Every inventory.presence_interval_seconds it lists the disks the
// kernel has (inventory/inventory.h ListPresentDisks: sysfs or kern.disks,
// nothing sent to a disk, so a sleeping disk stays asleep) and reads the
// pools (`zpool status`, /proc/mdstat). What changed since the previous look
// (a disk gone or new, a pool's, vdev's or member's state) is handed to
// on_change, and the daemon starts a discovery pass for it at once; every
// look is handed to on_look, where the daemon raises the missing alert of a
// drive still gone past the grace. Thread-safe; the runner and clock must
// outlive it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/periodic_thread.h"
#include "base/thread_annotations.h"
#include "config/config.h"

namespace dp {

// What one look saw.
struct PresenceLook {
  std::int64_t at = 0;              // unix seconds
  bool disks_read = false;          // false: the listing failed (kept out of comparisons)
  std::set<std::string> disks;      // "sda", "ada0"
  bool pools_read = false;          // false: zpool failed or hung
  // A pool ("zfs:tank") -> its states in one line: the pool's, then each
  // vdev's and member's ("DEGRADED mirror-0=DEGRADED sdb=REMOVED ...").
  std::map<std::string, std::string> pools;
};

// One look now.
PresenceLook LookForPresence(const Config& config, CommandRunner& runner, const Clock& clock);

// What differs from `before` to `now`, one line each for people: "sdb gone",
// "sdc appeared", "pool zfs:tank: ONLINE ... -> DEGRADED ...", "pool zfs:old
// gone". A side that could not be read is not compared.
std::vector<std::string> PresenceChanges(const PresenceLook& before, const PresenceLook& now);

class PresenceWatch {
 public:
  using ChangeFn = std::function<void(const std::vector<std::string>& changes)>;
  using LookFn = std::function<void(const PresenceLook& look)>;
  PresenceWatch(Config config, CommandRunner& runner, const Clock& clock, ChangeFn on_change,
                LookFn on_look = {});
  ~PresenceWatch();
  PresenceWatch(const PresenceWatch&) = delete;
  PresenceWatch& operator=(const PresenceWatch&) = delete;

  // Looks now and then every presence_interval_seconds; does nothing when
  // that is 0.
  void Start();
  void Stop();

  // One look on the caller's thread, compared with the previous one; the
  // changes (also handed to on_change when there are any). The first look
  // only sets the picture to compare with.
  std::vector<std::string> Look();

 private:
  const Config config_;
  CommandRunner& runner_;
  const Clock& clock_;
  const ChangeFn on_change_;
  const LookFn on_look_;
  Mutex mu_;  // one look at a time
  std::optional<PresenceLook> last_ GUARDED_BY(mu_);
  PeriodicThread thread_;
};

}  // namespace dp
