#include "sched/admission.h"

#include "sched/targets.h"

namespace dp {

DeferDecision Admit(const Job& job, const std::vector<Result<DriveState>>& probed,
                    const std::vector<Drive>& drives, const std::vector<Pool>& pools,
                    const SchedulerConfig& config, SysTime now) {
  const std::vector<std::string> ids = job.Drives();
  std::vector<DriveState> states;
  std::string missing, unknown;  // the last drive's message wins, as logged
  for (std::size_t i = 0; i < probed.size(); ++i) {
    const Result<DriveState>& st = probed[i];
    if (!st.ok()) {
      if (st.status().code() == StatusCode::kNotFound)
        missing = st.status().message();
      else
        unknown = st.status().ToString();
      continue;
    }
    DriveState s = *st;
    // Scrub/resilver state from the inventory when the probe did not say.
    if (s.pool_scan.empty() && !s.pool_scan_current && i < ids.size()) {
      const std::string pool = job.pool.empty() ? PlacementOf(ids[i], pools).pool : job.pool;
      for (const auto& p : pools)
        if (p.name == pool && p.Busy()) s.pool_scan = p.scan.function;
    }
    states.push_back(std::move(s));
  }

  bool present = true;
  for (const auto& d : ids) {
    bool found = false;
    for (const auto& have : drives) found = found || (have.present && have.id == d);
    present = present && found;
  }
  if (!present || !missing.empty()) {
    DeferDecision d;
    d.action = DeferAction::kSkip;
    d.reason = kMissingReason;
    d.detail = missing;
    return d;
  }
  if (!unknown.empty()) return DeferOrSkip(job, "state-unknown", unknown, config, now);
  return DecideDeferral(job, states, config, now);
}

}  // namespace dp
