// Demo mode (`diskpulsed --demo`): the real daemon — store, scheduler,
// detection, alerts, API and page — on the simulated NAS of DemoWorld, in a
// temporary database, so the page has something to show on a laptop, a VM
// or CI. PrepareDemo makes a temporary folder, points the configuration at
// it (database there, discovery off, fast schedules, an API token when none
// is set) and seeds two years of weekly runs of every read test plus daily
// SMART, judged by the real RunEvaluator as they would have been (the last
// 30 weeks; older runs only form baselines), so alerts with evidence are in
// place before the page first loads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "demo/demo_world.h"
#include "base/result.h"
#include "config/config.h"

namespace dp {

struct DemoSetup {
  std::string dir;  // the temporary folder holding the database
  std::shared_ptr<const DemoWorld> world;
  int seeded_runs = 0;
  int alerts = 0;
};

// `weeks` of weekly history up to `now` (unix seconds).
Result<DemoSetup> PrepareDemo(Config& config, std::int64_t now, int weeks = 104);

// Removes the demo's folder (database and its lock). Errors are ignored:
// it is a temporary folder.
void RemoveDemo(const DemoSetup& setup);

}  // namespace dp
