#include "base/periodic_thread.h"

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace dp {
namespace {

using namespace std::chrono_literals;

// Polls `done` for up to 5 s (a loaded CI machine can be slow to schedule).
template <class F>
bool Eventually(F done) {
  for (auto until = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(1ms))
    if (done()) return true;
  return done();
}

TEST(PeriodicThreadTest, PassAtStartThenOnlyWhenWokenWithinALongPeriod) {
  std::atomic<int> passes{0};
  PeriodicThread t;
  t.Start(1h, [&] { ++passes; });
  ASSERT_TRUE(Eventually([&] { return passes == 1; }));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(passes, 1) << "a pass ran before its period or a Wake";
  t.Wake();
  EXPECT_TRUE(Eventually([&] { return passes == 2; }));
  t.Stop();
}

TEST(PeriodicThreadTest, RunsAgainEachPeriod) {
  std::atomic<int> passes{0};
  PeriodicThread t;
  t.Start(5ms, [&] { ++passes; });
  EXPECT_TRUE(Eventually([&] { return passes >= 4; }));
  t.Stop();
}

TEST(PeriodicThreadTest, StopWaitsForThePassInProgressAndIsIdempotent) {
  std::atomic<bool> started{false}, finished{false};
  PeriodicThread t;
  t.Start(1h, [&] {
    started = true;
    std::this_thread::sleep_for(100ms);
    finished = true;
  });
  ASSERT_TRUE(Eventually([&] { return started.load(); }));
  t.Stop();
  EXPECT_TRUE(finished) << "Stop returned while a pass was still running";
  t.Stop();
}

TEST(PeriodicThreadTest, StartWhileRunningIsIgnoredAndStartAfterStopRunsAgain) {
  std::atomic<int> first{0}, second{0};
  PeriodicThread t;
  t.Start(1h, [&] { ++first; });
  t.Start(1h, [&] { ++second; });
  ASSERT_TRUE(Eventually([&] { return first == 1; }));
  t.Stop();
  EXPECT_EQ(second, 0);
  t.Start(1h, [&] { ++second; });
  EXPECT_TRUE(Eventually([&] { return second == 1; }));
  t.Stop();
  EXPECT_EQ(first, 1);
}

TEST(PeriodicThreadTest, StopBeforeStartAndDestructionWhileWaiting) {
  PeriodicThread idle;
  idle.Stop();
  std::atomic<int> passes{0};
  {
    PeriodicThread t;
    t.Start(1h, [&] { ++passes; });
    ASSERT_TRUE(Eventually([&] { return passes == 1; }));
  }  // the destructor stops a thread that waits for an hour, at once
  EXPECT_EQ(passes, 1);
}

}  // namespace
}  // namespace dp
