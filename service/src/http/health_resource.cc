// GET /api/v1/health: is the daemon up and its database readable and writable?
// GET /api/v1/version: what is running.
#include <chrono>

#include "alert/alert_dispatcher.h"
#include "http/api.h"
#include "watch/discovery.h"
#include "store/store.h"

namespace dp::http {

void AddHealthResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/health", [ctx](const Request&, const PathParams&) {
    // A cheap read proves the database answers; quick_check is too slow to
    // run on every probe of a years-old database and runs at start-up instead.
    // A read-only or failing volume still serves reads, so the newest
    // failed write counts too (it clears when a write succeeds again).
    auto drives = ctx.store->ListDrives();
    Status db = drives.ok() ? ctx.store->WriteFailure() : drives.status();
    std::string problem;
    if (!drives.ok()) problem = drives.status().message();
    else if (!db.ok()) problem = "writes fail: " + db.message();
    auto uptime = std::chrono::duration_cast<std::chrono::seconds>(ctx.clock->Now() -
                                                                   ctx.started_at);
    nlohmann::json body = {
        {"status", db.ok() ? "ok" : "error"},
        {"version", ctx.version},
        {"db", db.ok() ? "ok" : problem},
        {"uptime_seconds", uptime.count()},
    };
    // What discovery could not read (a hung smartctl, zpool timing out): the
    // daemon is well, a drive or the pools are not seen as they are now.
    if (ctx.discovery) {
      DiscoveryService::Health d = ctx.discovery->health();
      body["discovery"] = {
          {"passes", d.passes},
          {"last_at", d.last_at > 0 ? nlohmann::json(d.last_at) : nlohmann::json()},
          {"error", d.last_status.ok() ? nlohmann::json() : nlohmann::json(d.last_status.ToString())},
          {"drives", d.drive_problems},
          {"pools", d.pools_problem.empty() ? nlohmann::json() : nlohmann::json(d.pools_problem)},
          {"access", d.access},
      };
    }
    // Notifications that could not be delivered yet (a broker or mail relay
    // down, a login refused): still queued and kept in the outbox, retried.
    if (ctx.dispatcher) {
      nlohmann::json sinks = nlohmann::json::array();
      std::size_t waiting = 0;
      for (const SinkStats& st : ctx.dispatcher->Stats()) {
        const std::size_t owed = st.queued + (st.in_flight ? 1 : 0);
        waiting += owed;
        sinks.push_back({{"sink", st.name},
                         {"waiting", owed},
                         {"sent", st.sent},
                         {"failed", st.failed},
                         {"error", st.last_error.empty() ? nlohmann::json()
                                                         : nlohmann::json(st.last_error)}});
      }
      body["notifications"] = {{"waiting", waiting}, {"sinks", sinks}};
    }
    return JsonResponse(body, db.ok() ? 200 : 503);
  }, Access::kPublic);
  router.Get("/api/v1/version", [ctx](const Request&, const PathParams&) {
    nlohmann::json body = {
        {"name", "diskpulse"},
        {"version", ctx.version},
        {"api", "v1"},
        {"schema_version", ctx.store->SchemaVersion()},
    };
    return JsonResponse(body);
  }, Access::kPublic);
}

}  // namespace dp::http
