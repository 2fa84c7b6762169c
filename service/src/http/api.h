// The REST API and web page as one Router: what the resources need
// (ApiContext) and the function that registers every resource.
//
// Adding a resource: write http/<name>_resource.cc with an
// Add<Name>Resource(Router&, const ApiContext&) that registers its routes,
// declare it below, and add one line to BuildApiRouter() in api.cc. If it
// needs a new collaborator (the scheduler, the alert manager), add a pointer
// to ApiContext and set it in app/daemon.cc. Handlers run on the network
// thread: they may read the store, but anything long (a test run, a tool)
// is handed to sched and answered with 202.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "config/alerts_config.h"
#include "config/schedule_config.h"
#include "http/router.h"
#include "model/alert.h"

namespace dp {
class Store;
class Scheduler;
class AlertService;
class AlertDispatcher;
class DiscoveryService;
class OverrideBook;
}

namespace dp::http {

// What resources may use. Pointers are not owned and outlive the router.
struct ApiContext {
  Store* store = nullptr;         // required; thread-safe
  const Clock* clock = nullptr;   // required
  std::string version = DP_VERSION;
  SysTime started_at{};           // when the daemon started, for uptime
  std::string webui_root;         // "" = no web page (404 outside /api/)
  std::string api_token;          // "" = mutating calls refused (403)
  std::string read_token;         // also opens reads
  std::string metrics_token;      // opens /metrics
  bool reads_need_token = false;  // config's ReadsNeedToken

  // Optional collaborators; null while the daemon runs without them.
  Scheduler* scheduler = nullptr;       // runs: null -> run requests get 503
  AlertService* alerts = nullptr;       // ack, rebaseline: null -> 503
  AlertDispatcher* dispatcher = nullptr;  // alerts test: null -> 503
  const DiscoveryService* discovery = nullptr;  // health's "discovery": null -> left out
  OverrideBook* overrides = nullptr;    // null: only the API's overrides (no config file)
  std::string host;                     // shown in test notifications
  // For GET /api/v1/schedule without a scheduler (PlanSchedule over the store).
  std::vector<ScheduleConfig> schedules;
  // For the baseline band in drive history (detect's own rules).
  DetectionConfig detection;
};

// Until when an override holds the alert's notifications; nullopt when it
// is not muted (or the daemon runs without overrides).
std::optional<std::int64_t> AlertMutedUntil(const ApiContext& ctx, const Alert& a);
// The alert's standing (model/alert.h) under ctx's overrides: what every
// resource shows for it.
AlertStanding StandingIn(const ApiContext& ctx, const Alert& a);

// GET /api/v1/health, /api/v1/version.
void AddHealthResource(Router& router, const ApiContext& context);
// GET /api/v1/tests (the test catalog).
void AddTestsResource(Router& router, const ApiContext& context);
// GET /api/v1/drives, /api/v1/drives/{id}.
void AddDrivesResource(Router& router, const ApiContext& context);
// GET/POST /api/v1/runs, GET /api/v1/runs/{id}, POST /api/v1/runs/{id}/cancel.
void AddRunsResource(Router& router, const ApiContext& context);
// GET /api/v1/alerts, POST /api/v1/alerts/{id}/ack, POST /api/v1/alerts/test.
void AddAlertsResource(Router& router, const ApiContext& context);
// POST/GET /api/v1/drives/{id}/rebaseline.
void AddRebaselineResource(Router& router, const ApiContext& context);
void AddForgetResource(Router& router, const ApiContext& context);
// GET /api/v1/drives/{id}/history.
void AddHistoryResource(Router& router, const ApiContext& context);
// GET/POST /api/v1/overrides, DELETE /api/v1/overrides/{id},
// GET /api/v1/overrides/audit.
void AddOverridesResource(Router& router, const ApiContext& context);
// GET /api/v1/overview (the page's first screen in one answer).
void AddOverviewResource(Router& router, const ApiContext& context);
// GET /api/v1/pools (pool -> vdevs -> members).
void AddPoolsResource(Router& router, const ApiContext& context);
// GET /api/v1/drives/{id}/smart (SMART over time).
void AddSmartHistoryResource(Router& router, const ApiContext& context);
// GET /api/v1/drives/{id}/zfs (ZFS's own latency samples against the vdev siblings).
void AddZfsLatencyResource(Router& router, const ApiContext& context);
// GET /api/v1/drives/{id}/export (CSV or JSON), POST /api/v1/backup.
void AddExportResource(Router& router, const ApiContext& context);
// GET /api/v1/schedule.
void AddScheduleResource(Router& router, const ApiContext& context);
// GET /api/v1/openapi.json (the OpenAPI 3.1 document, http/openapi.json).
void AddOpenApiResource(Router& router, const ApiContext& context);
// GET /metrics (Prometheus text).
void AddMetricsResource(Router& router, const ApiContext& context);
// The web page: static files from webui_root for every other GET.
void AddStaticResource(Router& router, const ApiContext& context);

// A router with every resource registered.
std::shared_ptr<const Router> BuildApiRouter(const ApiContext& context);

}  // namespace dp::http
