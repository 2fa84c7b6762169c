#include "http/auth.h"

#include <gtest/gtest.h>

namespace dp::http {
namespace {

Request WithAuth(std::string value) {
  Request r = Request::Make(Method::kPost, "/api/v1/x");
  r.headers = {{"Authorization", std::move(value)}};
  return r;
}

TEST(ConstantTimeEquals, ComparesWholeStrings) {
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_TRUE(ConstantTimeEquals("", ""));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abcd"));
  EXPECT_FALSE(ConstantTimeEquals("abcd", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("", "a"));
  EXPECT_FALSE(ConstantTimeEquals(std::string_view("a\0b", 3), std::string_view("a\0c", 3)));
}

TEST(CheckBearerToken, RightTokenIsAlwaysAccepted) {
  EXPECT_FALSE(CheckBearerToken(WithAuth("Bearer tok-123"), "tok-123").has_value());
  EXPECT_FALSE(CheckBearerToken(WithAuth("bearer  tok-123 "), "tok-123").has_value());
}

TEST(CheckBearerToken, WrongOrMissingTokenIs401) {
  for (const char* h : {"Bearer tok-12", "Bearer tok-1234", "Basic dG9rLTEyMw==", "tok-123",
                        "Bearer", ""}) {
    auto r = CheckBearerToken(WithAuth(h), "tok-123");
    ASSERT_TRUE(r.has_value()) << h;
    EXPECT_EQ(r->status, 401) << h;
    EXPECT_NE(r->Header("WWW-Authenticate"), nullptr);
  }
  auto none = CheckBearerToken(Request::Make(Method::kPost, "/x"), "tok-123");
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->status, 401);
}

TEST(CheckBearerToken, NoConfiguredTokenRefusesEverythingWith403) {
  auto r = CheckBearerToken(WithAuth("Bearer "), "");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 403);
  EXPECT_NE(r->body.find("api_token"), std::string::npos);
}

}  // namespace
}  // namespace dp::http
