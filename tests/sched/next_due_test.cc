#include "sched/next_due.h"

#include <gtest/gtest.h>

#include <set>

#include "sched/calendar.h"
#include "support/capability.h"
#include "support/sched_test_util.h"

namespace dp {
namespace {

using namespace std::chrono_literals;
using testing::MakeSchedule;
using testing::ScopedTz;
using testing::Utc;

TEST(NextDueTest, IntervalFirstRunAndFollowing) {
  ScopedTz tz("UTC");
  auto s = MakeSchedule("smart", {"smart"}, "@every 6h");
  const SysTime now = Utc(2026, 1, 1, 12);
  EXPECT_EQ(*NextDue(s, "sda", std::nullopt, now), now);  // never ran, no jitter: due now
  EXPECT_EQ(*NextDue(s, "sda", DueState{now - 1h, std::nullopt}, now), now + 5h);
  // With jitter the first run waits for the drive's offset, below the jitter.
  s.jitter_seconds = 600;
  auto due = *NextDue(s, "sda", DueState{std::nullopt, now}, now);
  EXPECT_GE(due, now);
  EXPECT_LT(due, now + 10min);
  EXPECT_EQ(due, now + JitterOffset(s, "sda"));
  // Asked again later, the first due time stays put (anchored at first_seen).
  EXPECT_EQ(*NextDue(s, "sda", DueState{std::nullopt, now}, now + 1h), due);
}

TEST(NextDueTest, CronFirstRunIsTheNextSlotAfterFirstSeen) {
  ScopedTz tz("UTC");
  auto s = MakeSchedule("weekly", {"zones"}, "0 3 * * sun");
  const SysTime first_seen = Utc(2026, 1, 1, 12);  // Thursday
  EXPECT_EQ(*NextDue(s, "sda", DueState{std::nullopt, first_seen}, first_seen), Utc(2026, 1, 4, 3));
  // The box was off over that Sunday: due at once when it is back.
  EXPECT_EQ(*NextDue(s, "sda", DueState{std::nullopt, first_seen}, Utc(2026, 1, 20)),
            Utc(2026, 1, 4, 3));
}

TEST(NextDueTest, CatchUpRunsOnceNotOncePerMissedSlot) {
  ScopedTz tz("UTC");
  auto s = MakeSchedule("weekly", {"zones"}, "0 3 * * sun");
  const SysTime last = Utc(2026, 1, 4, 3);
  const SysTime back_on = Utc(2026, 1, 28, 9);  // three Sundays missed
  auto due = *NextDue(s, "sda", DueState{last, std::nullopt}, back_on);
  EXPECT_EQ(due, Utc(2026, 1, 11, 3));
  EXPECT_LE(due, back_on);
  // Taking it up records "now", so the next is the coming Sunday, not the
  // next missed one.
  SysTime recorded = RecordedRunTime(s, "sda", due, back_on);
  EXPECT_EQ(recorded, back_on);
  EXPECT_EQ(*NextDue(s, "sda", DueState{recorded, std::nullopt}, back_on), Utc(2026, 2, 1, 3));

  auto every = MakeSchedule("smart", {"smart"}, "@every 6h");
  due = *NextDue(every, "sda", DueState{Utc(2026, 1, 1), std::nullopt}, Utc(2026, 1, 4));
  EXPECT_EQ(due, Utc(2026, 1, 1, 6));
  recorded = RecordedRunTime(every, "sda", due, Utc(2026, 1, 4));
  EXPECT_EQ(recorded, Utc(2026, 1, 4));
  EXPECT_EQ(*NextDue(every, "sda", DueState{recorded, std::nullopt}, Utc(2026, 1, 4)),
            Utc(2026, 1, 4, 6));
}

TEST(NextDueTest, OnTimeRunsRecordTheSlotSoIntervalsDoNotDrift) {
  auto every = MakeSchedule("smart", {"smart"}, "@every 30s");
  const SysTime due = Utc(2026, 1, 1, 0, 0, 30);
  EXPECT_EQ(RecordedRunTime(every, "x", due, due + 900ms), due);
  EXPECT_EQ(RecordedRunTime(every, "x", due, due + 31s), due + 31s);
}

TEST(NextDueTest, BackwardClockJumpNeitherRepeatsNorStalls) {
  ScopedTz tz("UTC");
  auto s = MakeSchedule("weekly", {"zones"}, "0 3 * * sun");
  const SysTime last = Utc(2026, 1, 4, 3);  // ran Sunday 03:00
  // Clock steps back one hour: no second run this Sunday.
  EXPECT_EQ(*NextDue(s, "sda", DueState{last, std::nullopt}, Utc(2026, 1, 4, 2)),
            Utc(2026, 1, 11, 3));
  // Clock steps back two days: still next Sunday, not "this" Sunday again.
  EXPECT_EQ(*NextDue(s, "sda", DueState{last, std::nullopt}, Utc(2026, 1, 2, 3)),
            Utc(2026, 1, 11, 3));
  // Clock steps back a year (dead RTC battery): not a year's wait.
  auto due = *NextDue(s, "sda", DueState{last, std::nullopt}, Utc(2025, 1, 1));
  EXPECT_EQ(due, Utc(2025, 1, 5, 3));
  // ...and once the rebased state is kept, the answer holds still as time
  // passes (asked at the slot itself it is due, not a week later).
  DueState rebased = RebaseAfterClockJump(s, "sda", DueState{last, std::nullopt}, Utc(2025, 1, 1));
  EXPECT_EQ(*rebased.last_run, Utc(2025, 1, 1));
  EXPECT_EQ(*NextDue(s, "sda", rebased, Utc(2025, 1, 5, 3)), Utc(2025, 1, 5, 3));
  // A small jump keeps the state as it is.
  EXPECT_EQ(RebaseAfterClockJump(s, "sda", DueState{last, std::nullopt}, Utc(2026, 1, 2)),
            (DueState{last, std::nullopt}));
  // Intervals alike.
  auto every = MakeSchedule("smart", {"smart"}, "@every 6h");
  const SysTime now = Utc(2026, 1, 1);
  EXPECT_EQ(*NextDue(every, "sda", DueState{now + 1h, std::nullopt}, now), now + 7h);
  EXPECT_EQ(*NextDue(every, "sda", DueState{now + 240h, std::nullopt}, now), now + 6h);
  // A first_seen in the future (jump back before the first run).
  EXPECT_EQ(*NextDue(every, "sda", DueState{std::nullopt, now + 240h}, now), now);
}

TEST(NextDueTest, ForwardClockJumpIsACatchUp) {
  ScopedTz tz("UTC");
  auto s = MakeSchedule("weekly", {"zones"}, "0 3 * * sun");
  const SysTime last = Utc(2026, 1, 4, 3);
  auto due = *NextDue(s, "sda", DueState{last, std::nullopt}, Utc(2026, 3, 1, 12));
  EXPECT_EQ(due, Utc(2026, 1, 11, 3));  // due now, once
}

TEST(NextDueTest, JitterIsBoundedDeterministicAndSpread) {
  ScopedTz tz("UTC");
  auto s = MakeSchedule("weekly", {"zones"}, "0 3 * * sun", 3 * 3600);
  std::set<std::int64_t> hours;
  for (int i = 0; i < 500; ++i) {
    const std::string id = "wwn-5000c500a1b2" + std::to_string(1000 + i);
    auto off = JitterOffset(s, id);
    EXPECT_GE(off.count(), 0);
    EXPECT_LT(off.count(), 3 * 3600);
    EXPECT_EQ(off, JitterOffset(s, id)) << "deterministic";
    hours.insert(off.count() / 3600);
    auto due = *NextDue(s, id, DueState{std::nullopt, Utc(2026, 1, 1)}, Utc(2026, 1, 1));
    EXPECT_GE(due, Utc(2026, 1, 4, 3));
    EXPECT_LT(due, Utc(2026, 1, 4, 6));
    // Every later slot keeps the same offset.
    auto next = *NextDue(s, id, DueState{due, std::nullopt}, due);
    EXPECT_EQ(next - due, std::chrono::hours(24 * 7));
  }
  EXPECT_EQ(hours.size(), 3u) << "spread over the whole jitter";
  // Another schedule staggers the same drive differently.
  auto other = MakeSchedule("weekly-2", {"zones"}, "0 3 * * sun", 3 * 3600);
  int same = 0;
  for (int i = 0; i < 50; ++i) {
    std::string id = "d" + std::to_string(i);
    same += JitterOffset(s, id) == JitterOffset(other, id);
  }
  EXPECT_LT(same, 5);
  // An interval's offset stays below the interval even with a larger jitter.
  auto every = MakeSchedule("fast", {"smart"}, "@every 30s", 3600);
  for (int i = 0; i < 100; ++i) EXPECT_LT(JitterOffset(every, std::to_string(i)).count(), 30);
  // No jitter, no offset.
  EXPECT_EQ(JitterOffset(MakeSchedule("x", {"seq"}, "@daily"), "sda").count(), 0);
}

TEST(NextDueTest, TwoThirtyJobRunsOnceOnDstDaysWithJitter) {
  if (!ScopedTz::Available("Europe/Berlin")) DP_SKIP_WITHOUT("tzdata", "no tzdata");
  ScopedTz tz("Europe/Berlin");
  auto s = MakeSchedule("nightly", {"seq"}, "30 2 * * *", 20 * 60);
  for (SysTime start : {Utc(2026, 3, 27), Utc(2026, 10, 23)}) {
    DueState st{std::nullopt, start};
    SysTime now = start;
    int runs = 0;
    while (true) {
      auto due = *NextDue(s, "sda", st, now);
      if (due > start + 96h) break;
      now = std::max(now, due);
      st.last_run = RecordedRunTime(s, "sda", due, now);
      ++runs;
    }
    EXPECT_EQ(runs, 4) << "one run per night over four nights including the transition";
  }
}

TEST(NextDueTest, DisabledIsNeverDue) {
  auto s = MakeSchedule("x", {"seq"}, "@every 1h");
  s.enabled = false;
  EXPECT_FALSE(NextDue(s, "sda", std::nullopt, Utc(2026, 1, 1)).has_value());
}

}  // namespace
}  // namespace dp
