// Which tests a re-baseline may name and which alerts it closes. Its effect
// on detection and alerts over a real store: run_evaluator_test.cc.
#include "sched/rebaseline.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(RebaselineNames, TestsAndConditions) {
  for (const char* t : {"", "seq", "zones", "seek", "random", "sweep"})
    EXPECT_TRUE(ValidateRebaselineTest(t).ok()) << t;
  for (const char* t : {"smart", "pool-write", "parallel", "bogus"}) {
    Status s = ValidateRebaselineTest(t);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << t;
    EXPECT_NE(s.message().find("seq, zones, seek, random, sweep"), std::string::npos);
  }
  EXPECT_TRUE(ClosedByRebaseline("slowdown:seq:qd8-1m:mb_per_s", ""));
  EXPECT_TRUE(ClosedByRebaseline("trend:random:qd1-4k:p99_us", ""));
  EXPECT_TRUE(ClosedByRebaseline("slowdown:seq:qd8-1m:mb_per_s", "seq"));
  EXPECT_TRUE(ClosedByRebaseline("slowdown:seq", "seq"));
  EXPECT_FALSE(ClosedByRebaseline("slowdown:seq:qd8-1m:mb_per_s", "seek"));
  EXPECT_FALSE(ClosedByRebaseline("slowdown:sequel:x", "seq"));
  EXPECT_FALSE(ClosedByRebaseline("peer:seq:qd8-1m:mb_per_s", ""));
  EXPECT_FALSE(ClosedByRebaseline("smart:reallocated", ""));
  EXPECT_FALSE(ClosedByRebaseline("zfs:cksum", ""));
}

}  // namespace
}  // namespace dp
