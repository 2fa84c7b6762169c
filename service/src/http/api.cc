#include "http/api.h"

namespace dp::http {

std::shared_ptr<const Router> BuildApiRouter(const ApiContext& context) {
  auto router = std::make_shared<Router>(context.api_token);
  AddHealthResource(*router, context);
  AddTestsResource(*router, context);
  AddOpenApiResource(*router, context);
  AddDrivesResource(*router, context);
  AddHistoryResource(*router, context);
  AddSmartHistoryResource(*router, context);
  AddZfsLatencyResource(*router, context);
  AddOverviewResource(*router, context);
  AddPoolsResource(*router, context);
  AddRebaselineResource(*router, context);
  AddForgetResource(*router, context);
  AddRunsResource(*router, context);
  AddAlertsResource(*router, context);
  AddScheduleResource(*router, context);
  AddMetricsResource(*router, context);
  AddStaticResource(*router, context);
  return router;
}

}  // namespace dp::http
