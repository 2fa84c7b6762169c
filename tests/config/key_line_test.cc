#include "config/key_line.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

const char* const kText = R"({
  // "http": {"max_connections": 1} in a comment is not a key
  "api_token": "\"http\": tricky",
  "tools": {"timeout_seconds": 5},
  "http": {
    /* nor is "timeout_seconds" here */
    "timeout_seconds": 5,
    "max_connections": 64
  },
  "targets": [
    {"path": "/dev/a", "name": "a"},
    {
      "name": "b"
    },
    {"path": "/dev/c"}
  ],
  "alerts": {"webhooks": [{"url": "x"}, {"url": "y",
     "headers": {"X": "1"}}]}
})";

TEST(KeyLineTest, FindsKeysInTheirSection) {
  EXPECT_EQ(LineOfKeyPath(kText, "api_token"), 3);
  EXPECT_EQ(LineOfKeyPath(kText, "tools"), 4);
  EXPECT_EQ(LineOfKeyPath(kText, "tools.timeout_seconds"), 4);
  EXPECT_EQ(LineOfKeyPath(kText, "http"), 5);
  EXPECT_EQ(LineOfKeyPath(kText, "http.timeout_seconds"), 7);
  EXPECT_EQ(LineOfKeyPath(kText, "http.max_connections"), 8);
}

TEST(KeyLineTest, FollowsArrayIndices) {
  EXPECT_EQ(LineOfKeyPath(kText, "targets"), 10);
  EXPECT_EQ(LineOfKeyPath(kText, "targets[0].name"), 11);
  EXPECT_EQ(LineOfKeyPath(kText, "targets[1].name"), 13);
  EXPECT_EQ(LineOfKeyPath(kText, "targets[2].path"), 15);
  EXPECT_EQ(LineOfKeyPath(kText, "alerts.webhooks[1].url"), 17);
  EXPECT_EQ(LineOfKeyPath(kText, "alerts.webhooks[1].headers.X"), 18);
}

TEST(KeyLineTest, MissingKeysPointAtTheirEnclosingElement) {
  EXPECT_EQ(LineOfKeyPath(kText, "targets[1].path"), 12);  // the element's opening brace
  EXPECT_EQ(LineOfKeyPath(kText, "targets[7].path"), 10);  // no such element: the array
  EXPECT_EQ(LineOfKeyPath(kText, "http.nope"), 5);
  EXPECT_EQ(LineOfKeyPath(kText, "nope"), 0);
  EXPECT_EQ(LineOfKeyPath("", "listen"), 0);
  EXPECT_EQ(LineOfKeyPath("[1, 2]", "listen"), 0);
}

TEST(KeyLineTest, BlankText) {
  EXPECT_TRUE(IsBlankJson(""));
  EXPECT_TRUE(IsBlankJson(" \n\t"));
  EXPECT_TRUE(IsBlankJson("// nothing\n/* at all */\n"));
  EXPECT_FALSE(IsBlankJson("{}"));
  EXPECT_FALSE(IsBlankJson("// x\n{}"));
}

}  // namespace
}  // namespace dp
