// Run: one scheduled or requested test of one drive (or pool directory), with
// its lifecycle. Stored before anything else reads it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dp {

enum class RunOutcome { kQueued, kRunning, kOk, kFailed, kDeferred, kSkipped, kCancelled };

std::string_view RunOutcomeName(RunOutcome o);       // "queued", "running", "ok", ...
std::optional<RunOutcome> ParseRunOutcome(std::string_view s);

struct Run {
  std::int64_t id = 0;
  std::string drive_id;      // "" for a pool-level test (pool-write)
  std::string test;          // seq, zones, seek, random, sweep, pool-write, parallel, smart, smart-short, smart-long
  std::string trigger;       // "schedule:<name>", "api", "cli"
  std::int64_t started_at = 0;   // unix seconds
  std::optional<std::int64_t> ended_at;
  RunOutcome outcome = RunOutcome::kQueued;
  std::string reason;        // why deferred/skipped/failed/cancelled
  double progress = 0;       // 0..1 while running
  bool contended = false;
  bool partial = false;
  std::string engine;
};

}  // namespace dp
