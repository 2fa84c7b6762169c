#include "app/watchdog_feeder.h"

#include "base/log.h"

namespace dp {

WatchdogFeeder::WatchdogFeeder(ServiceNotifier& notifier, Stalled stalled)
    : notifier_(notifier), stalled_(std::move(stalled)) {}

bool WatchdogFeeder::Feed() {
  const std::vector<std::string> stalled = stalled_();
  if (!stalled.empty()) {
    if (!holding_) {
      std::string parts;
      for (const std::string& s : stalled) parts += (parts.empty() ? "" : ", ") + s;
      LogError("watchdog: not pinging the service manager: " + parts +
               "; it restarts diskpulsed if this lasts");
    }
    holding_ = true;
    return false;
  }
  if (holding_) LogWarning("watchdog: every part moves again; pinging the service manager");
  holding_ = false;
  notifier_.Watchdog();
  return true;
}

}  // namespace dp
