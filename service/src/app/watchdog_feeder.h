// WatchdogFeeder: feeds the service manager's watchdog (WATCHDOG=1) only
// while every working part of the daemon makes progress (base/heartbeat.h),
// so systemd restarts a daemon whose scheduler, HTTP server, database or
// evaluator hangs, not only one whose main loop does. Says once in the log
// which part held the pings back, and once when they resume.
// Called from one thread (the main loop).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/service_notifier.h"

namespace dp {

class WatchdogFeeder {
 public:
  using Stalled = std::function<std::vector<std::string>()>;
  WatchdogFeeder(ServiceNotifier& notifier, Stalled stalled);

  // One turn at the ping interval; true when it pinged.
  bool Feed();

 private:
  ServiceNotifier& notifier_;
  Stalled stalled_;
  bool holding_ = false;
};

}  // namespace dp
