#include "base/clock.h"

#include <gtest/gtest.h>

#include <thread>

#include "base/fake_clock.h"

namespace dp {
namespace {

using namespace std::chrono_literals;

TEST(ClockTest, UnixSecondsRoundTripAndUtcFormat) {
  EXPECT_EQ(ToUnixSeconds(FromUnixSeconds(1'767'225'600)), 1'767'225'600);
  EXPECT_EQ(FormatUtc(FromUnixSeconds(1'767'225'600)), "2026-01-01T00:00:00Z");
  EXPECT_EQ(FormatUtc(FromUnixSeconds(0)), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatUtc(FromUnixSeconds(1'796'000'400)), "2026-11-30T01:00:00Z");
  // Sub-second parts are dropped, not rounded.
  EXPECT_EQ(ToUnixSeconds(FromUnixSeconds(10) + 999ms), 10);
}

TEST(ClockTest, SystemClockMovesForwardAndSleeps) {
  SystemClock clock;
  MonoTime a = clock.Monotonic();
  clock.SleepFor(20ms);
  MonoTime b = clock.Monotonic();
  EXPECT_GE(b - a, 20ms);
  // Wall time is plausible (after 2025-01-01).
  EXPECT_GT(ToUnixSeconds(clock.Now()), 1'735'689'600);
}

TEST(FakeClockTest, StartsAtAFixedDateAndMovesOnlyWhenTold) {
  FakeClock clock;
  EXPECT_EQ(FormatUtc(clock.Now()), "2026-01-01T00:00:00Z");
  SysTime t0 = clock.Now();
  MonoTime m0 = clock.Monotonic();
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(clock.Now(), t0);
  EXPECT_EQ(clock.Monotonic(), m0);

  clock.Advance(std::chrono::hours(24 * 7));
  EXPECT_EQ(FormatUtc(clock.Now()), "2026-01-08T00:00:00Z");
  EXPECT_EQ(clock.Monotonic() - m0, std::chrono::hours(24 * 7));

  // Sleeping on a fake clock advances it instead of blocking.
  auto before = std::chrono::steady_clock::now();
  clock.SleepFor(std::chrono::hours(24 * 365));
  EXPECT_LT(std::chrono::steady_clock::now() - before, 1s);
  EXPECT_EQ(FormatUtc(clock.Now()), "2027-01-08T00:00:00Z");
}

TEST(FakeClockTest, SetStepsWallTimeOnly) {
  FakeClock clock(FromUnixSeconds(1000));
  MonoTime m0 = clock.Monotonic();
  clock.Set(FromUnixSeconds(500));  // a clock step backwards
  EXPECT_EQ(ToUnixSeconds(clock.Now()), 500);
  EXPECT_EQ(clock.Monotonic(), m0);
}

TEST(FakeClockTest, AdvancesFromManyThreadsAddUp) {
  FakeClock clock(FromUnixSeconds(0));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) clock.Advance(1s);
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(ToUnixSeconds(clock.Now()), 4000);
}

}  // namespace
}  // namespace dp
