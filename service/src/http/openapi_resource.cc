// GET /api/v1/openapi.json: the machine-readable description of this API, for
// client generators, API browsers and the tests that validate every response.
#include "http/api.h"
#include "http/openapi_document.h"

namespace dp::http {

void AddOpenApiResource(Router& router, const ApiContext&) {
  router.Get("/api/v1/openapi.json", [](const Request&, const PathParams&) {
    Response r;
    r.content_type = "application/json";
    r.body = std::string(OpenApiDocument());
    r.SetHeader("Cache-Control", "no-cache");
    return r;
  }, Access::kPublic);
}

}  // namespace dp::http
