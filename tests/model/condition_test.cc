// model/condition.h: every kind's name maps back to it, and which conditions
// resolve on the first clear evaluation (states read from the system) and
// which wait for the configured count (measured figures).
#include "model/condition.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(Condition, EveryKindNameMapsBack) {
  for (ConditionKind k : kConditionKinds)
    EXPECT_EQ(ConditionKindOf(std::string(ConditionKindName(k)) + ":x"), k)
        << ConditionKindName(k);
  EXPECT_EQ(ConditionKindOf("missing"), ConditionKind::kMissing);
  EXPECT_EQ(ConditionKindOf("bogus:x"), ConditionKind::kOther);
}

TEST(Condition, StatesResolveOnTheFirstClearFiguresWait) {
  for (const char* state : {"missing", "pool:tank:state", "pool:tank:members", "pool:tank:errors",
                            "scrub:tank:overdue", "scrub:tank:findings", "selftest:overdue",
                            "selftest:aborted"})
    EXPECT_EQ(ClearsToResolve(state, 3), 1) << state;
  for (const char* figure : {"pool:tank:capacity", "wear:endurance", "smart:pending_sectors",
                             "slowdown:seq:qd8-1m:mb_per_s", "zfs:tank:state", "peer:seq:x:y"})
    EXPECT_EQ(ClearsToResolve(figure, 3), 3) << figure;
}

}  // namespace
}  // namespace dp
