// Every problem of a configuration file is listed in the file's order, the
// way its owner reads and fixes it, whatever order the checks ran in (an
// unknown key is only found once its section is done).
#include <gtest/gtest.h>

#include "config/config.h"

namespace dp {
namespace {

TEST(ConfigErrorOrder, ProblemsComeInTheFilesLineOrder) {
  const std::string text = R"({
  "bogus_key": 1,
  "http": {"max_connections": "many"},
  "log_level": "loud"
})";
  auto c = ParseConfig(text, "d.json");
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  const auto bogus = m.find("d.json:2: bogus_key");
  const auto http = m.find("d.json:3: http.max_connections");
  const auto level = m.find("d.json:4: log_level");
  ASSERT_NE(bogus, std::string::npos) << m;
  ASSERT_NE(http, std::string::npos) << m;
  ASSERT_NE(level, std::string::npos) << m;
  EXPECT_LT(bogus, http) << m;
  EXPECT_LT(http, level) << m;
}

}  // namespace
}  // namespace dp
