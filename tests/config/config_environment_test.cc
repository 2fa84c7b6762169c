// ApplyEnvironment: what a container's owner sets without a shell wins over
// the file; a listen address that does not parse is an error naming it.
#include <map>

#include <gtest/gtest.h>

#include "config/config.h"

namespace dp {
namespace {

std::function<const char*(const char*)> Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(ConfigEnvironment, ListenAndTokensComeFromTheEnvironment) {
  auto c = ParseConfig(R"({"listen": "127.0.0.1:8470", "api_token": "from-file"})", "t.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_LISTEN", "0.0.0.0:9000"},
                                        {"DISKPULSE_API_TOKEN", "from-env"},
                                        {"DISKPULSE_READ_TOKEN", "look-only"}}))
                  .ok());
  EXPECT_EQ(c->listen_host, "0.0.0.0");
  EXPECT_EQ(c->listen_port, 9000);
  EXPECT_EQ(c->api_token, "from-env");
  EXPECT_EQ(c->read_token, "look-only");
  EXPECT_TRUE(ReadsNeedToken(*c));
}

TEST(ConfigEnvironment, UnsetOrEmptyLeavesTheFileAndABadListenIsNamed) {
  auto c = ParseConfig(R"({"api_token": "from-file"})", "t.json");
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_API_TOKEN", ""}})).ok());
  EXPECT_EQ(c->api_token, "from-file");
  Status bad = ApplyEnvironment(*c, Env({{"DISKPULSE_LISTEN", "nowhere"}}));
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("DISKPULSE_LISTEN='nowhere'"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace dp
