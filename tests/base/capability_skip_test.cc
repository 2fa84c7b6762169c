// DP_SKIP_WITHOUT (tests/support/capability.h), the one way a test skips for
// a missing capability: a skip naming the capability, except where CI=true,
// where it is a fatal failure naming it (a CI machine that lost root, loop
// devices or chromium must not pass as "skipped"). It lives beside base's
// tests because they build first and fastest; it tests the test support.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "support/capability.h"

namespace dp::testing {
namespace {

// Sets CI for one test and puts back what was there.
class ScopedCi {
 public:
  explicit ScopedCi(const char* value) {
    if (const char* old = std::getenv("CI")) old_ = old;
    if (value) ::setenv("CI", value, 1);
    else ::unsetenv("CI");
  }
  ~ScopedCi() {
    if (old_) ::setenv("CI", old_->c_str(), 1);
    else ::unsetenv("CI");
  }

 private:
  std::optional<std::string> old_;
};

bool reached_after_skip = false;

void LacksLoopDevices(const std::string& why) {
  DP_SKIP_WITHOUT("loop devices", "no /dev/loop-control: " << why);
  reached_after_skip = true;
}

// What LacksLoopDevices reports, caught before it reaches this test's result.
void Report(::testing::TestPartResultArray& results) {
  ::testing::ScopedFakeTestPartResultReporter catcher(
      ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
  LacksLoopDevices("permission denied");
}

// LacksLoopDevices reports one result, a skip or (under CI=true) a fatal
// failure, whose message holds `text`, and ends there.
void ExpectOneResult(bool fails, const std::string& text) {
  reached_after_skip = false;
  ::testing::TestPartResultArray results;
  Report(results);
  ASSERT_EQ(results.size(), 1);
  const ::testing::TestPartResult& r = results.GetTestPartResult(0);
  EXPECT_EQ(r.fatally_failed(), fails) << r.message();
  EXPECT_EQ(r.skipped(), !fails) << r.message();
  EXPECT_NE(std::string(r.message()).find(text), std::string::npos) << r.message();
  EXPECT_FALSE(reached_after_skip);
}

TEST(CapabilitySkipTest, WithoutCiAMissingCapabilitySkipsNamingIt) {
  ScopedCi ci(nullptr);
  EXPECT_FALSE(InCi());
  ExpectOneResult(false,
                  "missing capability: loop devices: no /dev/loop-control: permission denied");
}

TEST(CapabilitySkipTest, CiFalseKeepsTheSkip) {
  ScopedCi ci("false");
  EXPECT_FALSE(InCi());
  ExpectOneResult(false, "missing capability: loop devices:");
}

TEST(CapabilitySkipTest, UnderCiTrueAMissingCapabilityFailsNamingIt) {
  ScopedCi ci("true");
  EXPECT_TRUE(InCi());
  ExpectOneResult(true,
                  "missing capability under CI=true: loop devices: no /dev/loop-control: "
                  "permission denied");
}

}  // namespace
}  // namespace dp::testing
