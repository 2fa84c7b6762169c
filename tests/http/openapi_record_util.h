// Records every /api/v1 response an http test receives, so that
// validate_responses.py can hold each against the OpenAPI document
// (service/src/http/openapi.json). ctest sets DP_OPENAPI_RECORD to a file for
// the http tests (tests/CMakeLists.txt); without it nothing is written. One
// JSON line per response, appended in a single write(2) so parallel test
// processes do not interleave. Thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/clock.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "store/store.h"
#include "support/http_client.h"

namespace dp::testing {

// router.Route(request), recorded.
http::Response RouteAndRecord(const http::Router& router, const http::Request& request);

// GET `target` through the API router over `store` and `clock` (started now),
// recorded; the test fails unless it answers `want`. The parsed body.
nlohmann::json GetApiJson(Store& store, const Clock& clock, const std::string& target,
                          int want = 200);

// A response from the real daemon over a socket, recorded.
void RecordApiResponse(const std::string& method, const std::string& target,
                       const HttpResult& result);

}  // namespace dp::testing
