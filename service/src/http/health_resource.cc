// GET /api/v1/health: is the daemon up and its database readable?
// GET /api/v1/version: what is running.
#include <chrono>

#include "http/api.h"
#include "store/store.h"

namespace dp::http {

void AddHealthResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/health", [ctx](const Request&, const PathParams&) {
    // A cheap read proves the database answers; quick_check is too slow to
    // run on every probe of a years-old database and runs at start-up instead.
    auto drives = ctx.store->ListDrives();
    auto uptime = std::chrono::duration_cast<std::chrono::seconds>(ctx.clock->Now() -
                                                                   ctx.started_at);
    nlohmann::json body = {
        {"status", drives.ok() ? "ok" : "error"},
        {"version", ctx.version},
        {"db", drives.ok() ? "ok" : drives.status().message()},
        {"uptime_seconds", uptime.count()},
    };
    return JsonResponse(body, drives.ok() ? 200 : 503);
  });
  router.Get("/api/v1/version", [ctx](const Request&, const PathParams&) {
    nlohmann::json body = {
        {"name", "diskpulse"},
        {"version", ctx.version},
        {"api", "v1"},
        {"schema_version", ctx.store->SchemaVersion()},
    };
    return JsonResponse(body);
  });
}

}  // namespace dp::http
