#include "sched/preview.h"

#include <ctime>
#include <sstream>

#include "base/strings.h"
#include "sched/due_state_io.h"
#include "sched/targets.h"

namespace dp {
namespace {

std::string LocalText(SysTime t) {
  return FormatLocalTime(static_cast<std::time_t>(ToUnixSeconds(t)), "%a %Y-%m-%d %H:%M %Z");
}

std::string Pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

std::vector<PlannedTarget> PlanSchedule(const std::vector<ScheduleConfig>& schedules,
                                        const std::vector<Drive>& drives,
                                        const std::vector<Pool>& pools,
                                        const DueStateLookup& state_of, SysTime now, int count) {
  std::vector<PlannedTarget> plan;
  for (const auto& s : schedules) {
    if (!s.enabled) continue;
    for (const auto& target : ExpandSchedule(s, drives, pools)) {
      PlannedTarget p;
      p.schedule = s.name;
      p.target_key = target.key;
      p.label = target.label;
      for (const auto& j : target.jobs) p.tests.push_back(j.test);
      p.state = state_of(s.name, target.key);
      // Walk forward as the scheduler would, each run taken up when due.
      DueState st = p.state;
      if (!st.last_run && !st.first_seen) st.first_seen = now;
      SysTime at = now;
      for (int i = 0; i < count; ++i) {
        auto due = NextDue(s, target.key, st, at);
        if (!due) break;
        p.due.push_back(*due);
        SysTime taken = std::max(*due, at);
        st.last_run = RecordedRunTime(s, target.key, *due, taken);
        at = taken;
      }
      plan.push_back(std::move(p));
    }
  }
  return plan;
}

std::string FormatPlan(const std::vector<ScheduleConfig>& schedules,
                       const std::vector<PlannedTarget>& plan, SysTime now) {
  std::ostringstream os;
  if (schedules.empty()) os << "no schedules configured\n";
  for (const auto& s : schedules) {
    os << s.name << "  " << s.when.text;
    if (s.jitter_seconds > 0) os << "  jitter " << FormatDuration(s.jitter_seconds);
    os << "  tests";
    for (const auto& t : s.tests) os << ' ' << t;
    if (!s.enabled) os << "  (disabled)";
    os << '\n';
    bool any = false;
    for (const auto& p : plan) {
      if (p.schedule != s.name) continue;
      any = true;
      os << "  " << Pad(p.label, 14);
      if (p.state.last_run) os << " last " << LocalText(*p.state.last_run) << " ";
      os << " next ";
      if (p.due.empty()) os << "never";
      for (std::size_t i = 0; i < p.due.size(); ++i) {
        if (i > 0) os << ", ";
        if (p.due[i] <= now)
          os << "now (due since " << LocalText(p.due[i]) << ")";
        else
          os << LocalText(p.due[i]);
      }
      os << '\n';
    }
    if (!any && s.enabled) os << "  (no matching drives or pools)\n";
  }
  return os.str();
}

std::string PreviewSchedule(const std::vector<ScheduleConfig>& schedules,
                            const std::vector<Drive>& drives, const std::vector<Pool>& pools,
                            SchedulerStore* store, SysTime now, int count) {
  DueStateLookup lookup = [store](const std::string& schedule, const std::string& key) {
    if (!store) return DueState{};
    auto st = LoadDueState(*store, DueStateKey(schedule, key));
    return st.ok() ? *st : DueState{};
  };
  return FormatPlan(schedules, PlanSchedule(schedules, drives, pools, lookup, now, count), now);
}

}  // namespace dp
