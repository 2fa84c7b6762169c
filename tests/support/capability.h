// Skipping a test for a capability this machine lacks (root, loop devices, a
// cgroup io controller, chromium, a tool). On a developer's box a skip with
// the reason is right; where CI=true (the test command sets it) the machine is
// meant to have every capability, so the same skip is a broken setup and
// fails, naming the capability. CI=false, or CI unset, keeps the skip.
//
//   if (std::string why = LoopDevice::Unavailable(); !why.empty())
//     DP_SKIP_WITHOUT("loop devices", why);
//
// `reason` may be a stream expression (`"uid " << uid << " cannot"`). Like
// GTEST_SKIP it returns from the function: use it in a test body or SetUp.
// A skip that is not about a capability (a platform where the test means
// nothing) stays a plain GTEST_SKIP with a comment saying so.
// The shell tests' counterpart is tests/support/skip.sh.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace dp::testing {

// True where the environment variable CI is "true".
bool InCi();

}  // namespace dp::testing

#define DP_SKIP_WITHOUT(capability, reason)                                              \
  do {                                                                                   \
    std::ostringstream dp_skip_why_;                                                     \
    dp_skip_why_ << reason;                                                              \
    if (::dp::testing::InCi())                                                           \
      GTEST_FAIL() << "missing capability under CI=true: " << (capability) << ": "      \
                   << dp_skip_why_.str()                                                 \
                   << " (a CI machine must have it; CI=false lets this skip)";           \
    GTEST_SKIP() << "missing capability: " << (capability) << ": " << dp_skip_why_.str(); \
  } while (0)
