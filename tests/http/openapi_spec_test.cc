// The OpenAPI document against the code: every /api/v1 route the router
// registers is documented with its method and nothing else is, and the
// document the daemon serves is the one kept in the repository. (Each
// response the http tests receive is validated by validate_responses.py.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "base/fake_clock.h"
#include "http/api.h"
#include "http/openapi_document.h"
#include "http/openapi_record_util.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using nlohmann::json;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class OpenApiSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    ApiContext ctx;
    ctx.store = store_.get();
    ctx.clock = &clock_;
    ctx.started_at = clock_.Now();
    router_ = BuildApiRouter(ctx);
  }
  dp::testing::TempDir tmp_;
  std::unique_ptr<Store> store_;
  FakeClock clock_;
  std::shared_ptr<const Router> router_;
};

TEST_F(OpenApiSpecTest, EveryApiRouteIsDocumentedAndNothingElse) {
  json doc = json::parse(OpenApiDocument());
  std::set<std::string> documented, registered;
  for (const auto& [path, item] : doc["paths"].items())
    for (const auto& [key, op] : item.items())
      if (key != "parameters") documented.insert(Lower(key) + " " + path);
  for (const auto& [method, pattern] : router_->Routes())
    if (pattern.rfind("/api/", 0) == 0) registered.insert(Lower(MethodName(method)) + " " + pattern);
  std::set<std::string> missing, stale;
  std::set_difference(registered.begin(), registered.end(), documented.begin(), documented.end(),
                      std::inserter(missing, missing.end()));
  std::set_difference(documented.begin(), documented.end(), registered.begin(), registered.end(),
                      std::inserter(stale, stale.end()));
  EXPECT_TRUE(missing.empty()) << "routes missing from service/src/http/openapi.json: "
                               << ::testing::PrintToString(missing);
  EXPECT_TRUE(stale.empty()) << "documented but not routed: " << ::testing::PrintToString(stale);
  EXPECT_GE(registered.size(), 16u);
}

TEST_F(OpenApiSpecTest, ServesTheDocumentKeptInTheRepository) {
  Response r = dp::testing::RouteAndRecord(
      *router_, Request::Make(Method::kGet, "/api/v1/openapi.json"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body, dp::testing::ReadFile(std::string(DP_SOURCE_DIR) +
                                          "/service/src/http/openapi.json"));
  json doc = json::parse(r.body);
  EXPECT_EQ(doc["openapi"], "3.1.0");
  // Calls that change things carry the bearer token requirement; reads an
  // optional one (needed beyond loopback), but for the liveness calls and
  // this document, which are always open.
  const std::set<std::string> open = {"/api/v1/health", "/api/v1/version", "/api/v1/openapi.json"};
  for (const auto& [path, item] : doc["paths"].items())
    for (const auto& [key, op] : item.items()) {
      if (key == "parameters") continue;
      bool token = key == "post" || key == "put" || key == "patch" || key == "delete";
      json want = token ? json::array({{{"bearerToken", json::array()}}})
                  : open.count(path) ? json::array()
                                     : json::array({json::object(), {{"bearerToken", json::array()}}});
      EXPECT_EQ(op["security"], want) << key << " " << path;
      if (!open.count(path)) {
        EXPECT_TRUE(op["responses"].contains("401")) << key << " " << path;
        EXPECT_TRUE(op["responses"].contains("403")) << key << " " << path;
      }
    }
}

}  // namespace
}  // namespace dp::http
