// Which tests a re-baseline may name (which alerts it closes:
// tests/alert/alert_service_test.cc). Its effect on detection and alerts
// over a real store: run_evaluator_test.cc.
#include "runs/rebaseline.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(RebaselineNames, Tests) {
  for (const char* t : {"", "seq", "zones", "seek", "random", "sweep"})
    EXPECT_TRUE(ValidateRebaselineTest(t).ok()) << t;
  for (const char* t : {"smart", "pool-write", "parallel", "bogus"}) {
    Status s = ValidateRebaselineTest(t);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << t;
    EXPECT_NE(s.message().find("seq, zones, seek, random, sweep"), std::string::npos);
  }
}

}  // namespace
}  // namespace dp
