#include "http/api.h"

#include "runs/override_book.h"

namespace dp::http {

std::optional<std::int64_t> AlertMutedUntil(const ApiContext& ctx, const Alert& a) {
  if (!ctx.overrides || a.state == "resolved" || a.drive_id.empty()) return std::nullopt;
  return ctx.overrides->MutedUntil(a.drive_id, a.condition);
}

AlertStanding StandingIn(const ApiContext& ctx, const Alert& a) {
  return StandingOf(a, AlertMutedUntil(ctx, a).has_value());
}

std::shared_ptr<const Router> BuildApiRouter(const ApiContext& context) {
  AccessTokens tokens;
  tokens.api_token = context.api_token;
  tokens.read_token = context.read_token;
  tokens.metrics_token = context.metrics_token;
  tokens.reads_need_token = context.reads_need_token;
  auto router = std::make_shared<Router>(std::move(tokens));
  AddHealthResource(*router, context);
  AddTestsResource(*router, context);
  AddOpenApiResource(*router, context);
  AddDrivesResource(*router, context);
  AddHistoryResource(*router, context);
  AddSmartHistoryResource(*router, context);
  AddZfsLatencyResource(*router, context);
  AddExportResource(*router, context);
  AddOverviewResource(*router, context);
  AddPoolsResource(*router, context);
  AddRebaselineResource(*router, context);
  AddOverridesResource(*router, context);
  AddForgetResource(*router, context);
  AddRunsResource(*router, context);
  AddAlertsResource(*router, context);
  AddScheduleResource(*router, context);
  AddMetricsResource(*router, context);
  AddStaticResource(*router, context);
  return router;
}

}  // namespace dp::http
