// GET /api/v1/tests: the tests diskpulse knows (model/test_catalog.h), so
// that the page's test lists, chart titles and units come from the same
// table as the scheduler's and detection's.
#include "http/api.h"
#include "model/test_catalog.h"

namespace dp::http {

void AddTestsResource(Router& router, const ApiContext&) {
  router.Get("/api/v1/tests", [](const Request&, const PathParams&) {
    nlohmann::json tests = nlohmann::json::array();
    for (const TestInfo& t : TestCatalog()) {
      nlohmann::json metrics = nlohmann::json::array();
      for (const TestMetric& m : t.metrics)
        metrics.push_back({{"metric", m.metric},
                           {"unit", m.unit},
                           {"higher_is_better", m.higher_is_better},
                           {"title", m.title}});
      tests.push_back({{"name", t.name},
                       {"kind", TestKindName(t.kind)},
                       {"judged", t.judged},
                       {"scope", t.scope},
                       {"summary", t.summary},
                       {"metrics", std::move(metrics)}});
    }
    return JsonResponse({{"tests", std::move(tests)}});
  });
}

}  // namespace dp::http
