// The router is pure: these tests build one from plain handlers and feed it
// plain Requests, no sockets.
#include "http/router.h"

#include <gtest/gtest.h>

namespace dp::http {
namespace {

Handler Text(std::string body) {
  return [body](const Request&, const PathParams&) {
    Response r;
    r.content_type = "text/plain";
    r.body = body;
    return r;
  };
}

nlohmann::json ErrorOf(const Response& r) { return nlohmann::json::parse(r.body); }

class RouterTest : public ::testing::Test {
 protected:
  RouterTest() : router_("s3cret") {
    router_.Get("/api/v1/health", Text("health"));
    router_.Get("/api/v1/drives", Text("drives"));
    router_.Get("/api/v1/drives/{id}", [](const Request&, const PathParams& p) {
      Response r;
      r.body = "drive " + p.at("id");
      return r;
    });
    router_.Post("/api/v1/drives/{id}/runs", Text("started"));
    router_.SetFallback(Text("static"));
  }
  Router router_;
};

TEST_F(RouterTest, RoutesGetToItsHandler) {
  Response r = router_.Route(Request::Make(Method::kGet, "/api/v1/health"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "health");
}

TEST_F(RouterTest, QueryStringDoesNotAffectMatching) {
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/api/v1/drives?limit=3")).body, "drives");
}

TEST_F(RouterTest, HeadRunsTheGetHandler) {
  Response r = router_.Route(Request::Make(Method::kHead, "/api/v1/health"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "health");  // the server drops it on the wire
}

TEST_F(RouterTest, PlaceholderCapturesDecodedSegment) {
  Response r = router_.Route(Request::Make(Method::kGet, "/api/v1/drives/WDC%20WD40_X%2F1"));
  EXPECT_EQ(r.body, "drive WDC WD40_X/1");
}

TEST_F(RouterTest, UnknownApiPathIs404WithJsonError) {
  Response r = router_.Route(Request::Make(Method::kGet, "/api/v1/nope"));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.content_type, "application/json");
  auto j = ErrorOf(r);
  EXPECT_EQ(j["error"]["code"], "not_found");
  EXPECT_NE(j["error"]["message"].get<std::string>().find("/api/v1/nope"), std::string::npos);
}

TEST_F(RouterTest, TrailingSlashIsADifferentPath) {
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/api/v1/drives/")).status, 404);
}

TEST_F(RouterTest, WrongMethodIs405WithAllowHeader) {
  Response r = router_.Route(Request::Make(Method::kDelete, "/api/v1/health"));
  EXPECT_EQ(r.status, 405);
  ASSERT_NE(r.Header("Allow"), nullptr);
  EXPECT_EQ(*r.Header("allow"), "GET, HEAD");
  EXPECT_EQ(ErrorOf(r)["error"]["code"], "method_not_allowed");
}

TEST_F(RouterTest, AllowListsEveryMethodOfThePath) {
  Response r = router_.Route(Request::Make(Method::kGet, "/api/v1/drives/x/runs"));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(*r.Header("Allow"), "POST");
}

TEST_F(RouterTest, StaticFallbackOnlyOutsideApiAndOnlyForReads) {
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/")).body, "static");
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/css/x.css")).body, "static");
  EXPECT_EQ(router_.Route(Request::Make(Method::kHead, "/index.html")).body, "static");
  Response post = router_.Route(Request::Make(Method::kPost, "/index.html"));
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(*post.Header("Allow"), "GET, HEAD");
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/api")).status, 404);
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/api/anything")).status, 404);
}

TEST_F(RouterTest, NonAbsoluteTargetsAreBadRequests) {
  for (const char* target : {"*", "http://example.com/api/v1/health", "api/v1/health", ""}) {
    Response r = router_.Route(Request::Make(Method::kGet, target));
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_EQ(ErrorOf(r)["error"]["code"], "bad_request") << target;
  }
}

TEST_F(RouterTest, BadPercentEscapeIsBadRequest) {
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/api/v1/drives/%zz")).status, 400);
  EXPECT_EQ(router_.Route(Request::Make(Method::kGet, "/api/v1/drives/%4")).status, 400);
}

TEST_F(RouterTest, MutatingRouteNeedsTheToken) {
  Request r = Request::Make(Method::kPost, "/api/v1/drives/x/runs");
  Response missing = router_.Route(r);
  EXPECT_EQ(missing.status, 401);
  EXPECT_NE(missing.Header("WWW-Authenticate"), nullptr);

  r.headers = {{"Authorization", "Bearer wrong"}};
  EXPECT_EQ(router_.Route(r).status, 401);
  r.headers = {{"authorization", "bearer s3cret"}};
  Response ok = router_.Route(r);
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.body, "started");
}

TEST(RouterNoToken, MutatingCallsAreForbiddenWithAHint) {
  Router router("");
  router.Post("/api/v1/thing", Text("done"));
  Request r = Request::Make(Method::kPost, "/api/v1/thing");
  r.headers = {{"Authorization", "Bearer "}};
  Response resp = router.Route(r);
  EXPECT_EQ(resp.status, 403);
  EXPECT_NE(ErrorOf(resp)["error"]["message"].get<std::string>().find("api_token"),
            std::string::npos);
}

TEST(RouterAccess, GetCanBeTokenProtected) {
  Router router("t");
  router.Add(Method::kGet, "/api/v1/secret", Text("x"), Access::kToken);
  EXPECT_EQ(router.Route(Request::Make(Method::kGet, "/api/v1/secret")).status, 401);
}

TEST(RouterErrors, HandlerExceptionBecomes500) {
  Router router;
  router.Get("/api/v1/boom", [](const Request&, const PathParams&) -> Response {
    throw std::runtime_error("kaboom");
  });
  Response r = router.Route(Request::Make(Method::kGet, "/api/v1/boom"));
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.body.find("kaboom"), std::string::npos);  // internals stay in the log
}

TEST(RouterNoFallback, EverythingUnknownIs404) {
  Router router;
  EXPECT_EQ(router.Route(Request::Make(Method::kGet, "/")).status, 404);
}

TEST(SplitPath, DecodesEachSegment) {
  auto s = SplitPath("/a/b%20c/");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (std::vector<std::string>{"a", "b c", ""}));
}

}  // namespace
}  // namespace dp::http
