// StandingOf: the one value every surface renders for an alert.
#include "model/alert.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

Alert Open(int notified) {
  Alert a;
  a.state = "open";
  a.notify_count = notified;
  return a;
}

TEST(AlertStandingTest, AnUntoldAlertIsAWatchAndNoAlarm) {
  const auto s = StandingOf(Open(0), false);
  EXPECT_EQ(s, AlertStanding::kWatching);
  EXPECT_EQ(StandingName(s), "watching");
  EXPECT_FALSE(Alarming(s));
}

TEST(AlertStandingTest, AToldAlertIsNotifiedAndAnAlarm) {
  const auto s = StandingOf(Open(1), false);
  EXPECT_EQ(s, AlertStanding::kNotified);
  EXPECT_TRUE(Alarming(s));
}

TEST(AlertStandingTest, AMuteHoldsEvenAToldAlertButNotAnAcknowledgedOne) {
  EXPECT_EQ(StandingOf(Open(3), true), AlertStanding::kMuted);
  EXPECT_FALSE(Alarming(AlertStanding::kMuted));
  Alert acked = Open(1);
  acked.state = "acknowledged";
  EXPECT_EQ(StandingOf(acked, true), AlertStanding::kAcknowledged);
  EXPECT_TRUE(Alarming(AlertStanding::kAcknowledged));
}

TEST(AlertStandingTest, AResolvedAlertIsResolvedWhateverElseHeldIt) {
  Alert a = Open(2);
  a.state = "resolved";
  EXPECT_EQ(StandingOf(a, true), AlertStanding::kResolved);
  EXPECT_EQ(StandingName(StandingOf(a, false)), "resolved");
  EXPECT_FALSE(Alarming(AlertStanding::kResolved));
}

}  // namespace
}  // namespace dp
