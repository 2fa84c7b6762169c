#include "sched/deferral.h"

#include <algorithm>
#include <cmath>

namespace dp {
namespace {

std::string Percent(double share) {
  return std::to_string(static_cast<int>(std::lround(share * 100))) + "%";
}

// The reason a single drive's state gives, or "".
std::string ReasonFor(TestKind kind, const DriveState& s, const SchedulerConfig& c,
                      std::string& detail) {
  if (s.asleep) {
    detail = "drive is in standby (not woken)";
    return "asleep";
  }
  if (kind == TestKind::kSmart) return "";
  if (s.pool_scan == "resilver" || s.pool_scan == "scrub") {
    detail = "pool " + s.pool_scan + " in progress";
    return s.pool_scan;
  }
  if (s.self_test_running) {
    detail = "SMART self-test in progress";
    return "self-test";
  }
  if (s.temperature_c && *s.temperature_c > c.max_temperature_c) {
    detail =
        std::to_string(*s.temperature_c) + "°C > " + std::to_string(c.max_temperature_c) + "°C";
    return "temperature";
  }
  if (s.busy_share > c.busy_above) {
    detail = "busy " + Percent(s.busy_share) + " > " + Percent(c.busy_above) + " with other I/O";
    return "busy";
  }
  return "";
}

int Rank(const std::string& reason) {
  static const char* kOrder[] = {"asleep", "resilver", "scrub", "self-test", "temperature", "busy"};
  for (int i = 0; i < 6; ++i)
    if (reason == kOrder[i]) return i;
  return 6;
}

}  // namespace

DeferDecision DecideDeferral(const Job& job, const std::vector<DriveState>& states,
                             const SchedulerConfig& config, SysTime now) {
  DeferDecision d;
  if (job.force) return d;
  // A name that is not a test (none reaches here: config and the API check
  // names) gets the rules of the heaviest kind, a read.
  const TestKind kind = KindOfTest(job.test).value_or(TestKind::kRead);
  for (const auto& s : states) {
    std::string detail;
    std::string reason = ReasonFor(kind, s, config, detail);
    if (!reason.empty() && (d.reason.empty() || Rank(reason) < Rank(d.reason))) {
      d.reason = reason;
      d.detail = detail;
    }
  }
  if (d.reason.empty()) return d;
  return DeferOrSkip(job, d.reason, d.detail, config, now);
}

DeferDecision DeferOrSkip(const Job& job, std::string reason, std::string detail,
                          const SchedulerConfig& config, SysTime now) {
  DeferDecision d;
  if (job.force) return d;
  d.reason = std::move(reason);
  d.detail = std::move(detail);
  const SysTime deadline = job.queued_at + std::chrono::seconds(config.defer_window_seconds);
  if (now >= deadline) {
    d.action = DeferAction::kSkip;
    return d;
  }
  d.action = DeferAction::kDefer;
  d.retry_at = std::min(now + std::chrono::seconds(config.retry_seconds), deadline);
  return d;
}

}  // namespace dp
