// The OpenAPI 3.1 description of /api/v1. Kept as http/openapi.json (edit that
// file when a route, parameter or response changes) and compiled in by CMake,
// so the daemon serves exactly the document the tests validate against.
#pragma once

#include <string_view>

namespace dp::http {

// The document's JSON text.
std::string_view OpenApiDocument();

}  // namespace dp::http
