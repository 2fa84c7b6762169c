#include "watch/presence_watch.h"

#include <chrono>

#include "base/log.h"
#include "inventory/inventory.h"

namespace dp {
namespace {

// The states of a pool in one line; member order as zpool printed it, so the
// line only changes when a state does.
std::string StatesOf(const Pool& pool) {
  std::string line = pool.state.empty() ? "?" : pool.state;
  for (const Vdev& v : pool.vdevs) {
    line += " " + v.name + "=" + v.state;
    for (const PoolMember& m : v.members) line += " " + m.path + "=" + m.state;
  }
  return line;
}

}  // namespace

PresenceLook LookForPresence(const Config& config, CommandRunner& runner, const Clock& clock) {
  PresenceLook look;
  look.at = ToUnixSeconds(clock.Now());
  auto disks = ListPresentDisks(config, runner);
  if (disks.ok()) {
    look.disks_read = true;
    look.disks.insert(disks->begin(), disks->end());
  } else {
    LogWarning("presence: disks not listed: " + disks.status().ToString());
  }
  std::vector<std::string> warnings;
  auto pools = ReadPools(config, runner, &warnings);
  if (pools.ok()) {
    look.pools_read = true;
    for (const Pool& p : *pools) look.pools[p.kind + ":" + p.name] = StatesOf(p);
  } else {
    LogWarning("presence: pools not read: " + pools.status().ToString());
  }
  // The warnings are discovery's to log: a presence look every two minutes
  // would repeat them hundreds of times a day.
  return look;
}

std::vector<std::string> PresenceChanges(const PresenceLook& before, const PresenceLook& now) {
  std::vector<std::string> out;
  if (before.disks_read && now.disks_read) {
    for (const std::string& d : before.disks)
      if (!now.disks.count(d)) out.push_back(d + " gone");
    for (const std::string& d : now.disks)
      if (!before.disks.count(d)) out.push_back(d + " appeared");
  }
  if (before.pools_read && now.pools_read) {
    for (const auto& [name, states] : before.pools) {
      auto it = now.pools.find(name);
      if (it == now.pools.end()) out.push_back("pool " + name + " gone");
      else if (it->second != states)
        out.push_back("pool " + name + ": " + states + " -> " + it->second);
    }
    for (const auto& [name, states] : now.pools)
      if (!before.pools.count(name)) out.push_back("pool " + name + " appeared: " + states);
  }
  return out;
}

PresenceWatch::PresenceWatch(Config config, CommandRunner& runner, const Clock& clock,
                             ChangeFn on_change, LookFn on_look)
    : config_(std::move(config)),
      runner_(runner),
      clock_(clock),
      on_change_(std::move(on_change)),
      on_look_(std::move(on_look)) {}

PresenceWatch::~PresenceWatch() { Stop(); }

void PresenceWatch::Start() {
  if (config_.inventory.presence_interval_seconds <= 0) return;
  thread_.Start(std::chrono::seconds(config_.inventory.presence_interval_seconds),
                [this] { Look(); });
}

void PresenceWatch::Stop() { thread_.Stop(); }

std::vector<std::string> PresenceWatch::Look() {
  MutexLock lock(mu_);
  PresenceLook look = LookForPresence(config_, runner_, clock_);
  std::vector<std::string> changes;
  if (last_) {
    changes = PresenceChanges(*last_, look);
    // A side that could not be read keeps the previous picture, so a zpool
    // that hung once does not make every pool look new at the next look.
    if (!look.disks_read) {
      look.disks_read = last_->disks_read;
      look.disks = last_->disks;
    }
    if (!look.pools_read) {
      look.pools_read = last_->pools_read;
      look.pools = last_->pools;
    }
  }
  last_ = look;
  if (!changes.empty()) {
    std::string all;
    for (const auto& c : changes) all += (all.empty() ? "" : "; ") + c;
    LogInfo("presence: " + all + "; discovery now");
    if (on_change_) on_change_(changes);
  }
  if (on_look_) on_look_(look);
  return changes;
}

}  // namespace dp
