// GET /api/v1/schedule?count=N (default 3, at most 50): the next due times of
// every (schedule, target). From the running scheduler's live state; without
// one, planned with the same PlanSchedule over the stored drives, pools and
// scheduler state (so the page shows the plan even while the scheduler is
// down). {"source": "scheduler"|"plan", "now": T, "targets": [{"schedule",
// "target", "label", "tests", "last_run", "due": [unix seconds...]}]}
#include "http/api.h"
#include "http/resource_json.h"
#include "runs/store_scheduler_store.h"
#include "sched/due_state_io.h"
#include "sched/preview.h"
#include "sched/scheduler.h"
#include "store/store.h"

namespace dp::http {
namespace {

Response Schedule(const ApiContext& ctx, const Request& request) {
  auto q = request.Query();
  int count = 3;
  if (auto it = q.find("count"); it != q.end() && !it->second.empty()) {
    auto n = ParseId(it->second);
    if (!n || *n > 50) return ErrorResponse(400, "bad_request", "count must be 1 to 50");
    count = static_cast<int>(*n);
  }
  const SysTime now = ctx.clock->Now();
  std::vector<PlannedTarget> plan;
  if (ctx.scheduler) {
    plan = ctx.scheduler->Upcoming(count);
  } else {
    auto drives = ctx.store->ListDrives();
    if (!drives.ok()) return StatusResponse(drives.status());
    std::vector<Drive> present;
    for (const Drive& d : *drives)
      if (d.present) present.push_back(d);
    auto pools = ctx.store->LatestPools();
    if (!pools.ok()) return StatusResponse(pools.status());
    StoreSchedulerStore states(*ctx.store);
    plan = PlanSchedule(
        ctx.schedules, present, *pools,
        [&](const std::string& schedule, const std::string& key) {
          auto st = LoadDueState(states, DueStateKey(schedule, key));
          return st.ok() ? *st : DueState{};
        },
        now, count);
  }
  nlohmann::json targets = nlohmann::json::array();
  for (const PlannedTarget& t : plan) {
    nlohmann::json due = nlohmann::json::array();
    for (SysTime d : t.due) due.push_back(ToUnixSeconds(d));
    targets.push_back({{"schedule", t.schedule},
                       {"target", t.target_key},
                       {"label", t.label},
                       {"tests", t.tests},
                       {"last_run", t.state.last_run
                                        ? nlohmann::json(ToUnixSeconds(*t.state.last_run))
                                        : nlohmann::json(nullptr)},
                       {"due", due}});
  }
  return JsonResponse({{"source", ctx.scheduler ? "scheduler" : "plan"},
                       {"now", ToUnixSeconds(now)},
                       {"targets", targets}});
}

}  // namespace

void AddScheduleResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/schedule",
             [ctx](const Request& r, const PathParams&) { return Schedule(ctx, r); });
}

}  // namespace dp::http
