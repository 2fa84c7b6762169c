#include "http/request.h"

#include <gtest/gtest.h>

namespace dp::http {
namespace {

TEST(Request, SplitsPathAndQuery) {
  Request r = Request::Make(Method::kGet, "/api/v1/drives?limit=5&name=a%20b+c#frag");
  EXPECT_EQ(r.Path(), "/api/v1/drives");
  EXPECT_EQ(r.RawQuery(), "limit=5&name=a%20b+c");
  auto q = r.Query();
  EXPECT_EQ(q["limit"], "5");
  EXPECT_EQ(q["name"], "a b c");
}

TEST(Request, HeaderLookupIgnoresCase) {
  Request r;
  r.headers = {{"Content-Type", "application/json"}};
  ASSERT_NE(r.Header("content-type"), nullptr);
  EXPECT_EQ(*r.Header("CONTENT-TYPE"), "application/json");
  EXPECT_EQ(r.Header("Authorization"), nullptr);
}

TEST(Request, Methods) {
  EXPECT_EQ(ParseMethod("GET"), Method::kGet);
  EXPECT_EQ(ParseMethod("get"), Method::kOther);  // methods are case-sensitive
  EXPECT_EQ(ParseMethod("BREW"), Method::kOther);
  EXPECT_FALSE(IsMutating(Method::kGet));
  EXPECT_FALSE(IsMutating(Method::kHead));
  EXPECT_TRUE(IsMutating(Method::kPost));
  EXPECT_TRUE(IsMutating(Method::kDelete));
  EXPECT_TRUE(IsMutating(Method::kOther));
}

TEST(PercentDecode, DecodesAndRejectsBadEscapes) {
  EXPECT_EQ(*PercentDecode("%2e%2E/%41"), "../A");
  EXPECT_EQ(*PercentDecode("a+b"), "a+b");
  EXPECT_FALSE(PercentDecode("%").ok());
  EXPECT_FALSE(PercentDecode("%4").ok());
  EXPECT_FALSE(PercentDecode("%g1").ok());
  auto nul = PercentDecode("a%00b");
  ASSERT_TRUE(nul.ok());
  EXPECT_EQ(nul->size(), 3u);
}

}  // namespace
}  // namespace dp::http
