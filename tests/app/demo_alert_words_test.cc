// The demo's planted problems as their owner reads them: sdb's decline is
// one told alert (its own baseline, its trend and its siblings' rules are
// members of it), the missing drive's headline counts days, sdd's SMART
// alert gives the count its SMART table shows, and every alert has a
// headline, a confidence and advice. PrepareDemo seeds a real store with
// the real detection and alert service.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "app/demo_mode.h"
#include "model/condition.h"
#include "store/store.h"

namespace dp {
namespace {

constexpr std::int64_t kNow = 1780000000;

TEST(DemoAlertWords, OneAlertPerDriveProblemInAnOwnersWords) {
  Config config;
  auto setup = PrepareDemo(config, kNow, 30);
  ASSERT_TRUE(setup.ok()) << setup.status().ToString();
  {
    auto store = Store::Open(config.database);
    ASSERT_TRUE(store.ok());
    auto drives = (*store)->ListDrives();
    ASSERT_TRUE(drives.ok());
    std::map<std::string, std::string> id_of;
    for (const Drive& d : *drives) id_of[d.name] = d.id;
    auto all = (*store)->ListAlerts(AlertFilter{"all", "", 0});
    ASSERT_TRUE(all.ok());

    // sdb's decline: every alert about its speed that was ever told is one.
    std::set<std::string> told;
    std::set<ConditionKind> rules;
    for (const Alert& a : *all) {
      if (a.drive_id != id_of["sdb"]) continue;
      const ConditionKind k = ConditionKindOf(a.condition);
      if (k != ConditionKind::kSlowdown && k != ConditionKind::kTrend &&
          k != ConditionKind::kPeer)
        continue;
      if (a.notify_count > 0) told.insert(a.condition + " #" + std::to_string(a.id));
      for (const AlertMember& m : a.event.members) rules.insert(ConditionKindOf(m.condition));
    }
    EXPECT_EQ(told.size(), 1u) << ::testing::PrintToString(told);
    EXPECT_TRUE(rules.count(ConditionKind::kTrend)) << "the trend is a member of the one alert";

    for (const Alert& a : *all) {
      if (a.state == "resolved") continue;
      SCOPED_TRACE(a.condition + ": " + a.summary);
      EXPECT_FALSE(a.words.headline.empty());
      EXPECT_FALSE(a.words.confidence.empty());
      EXPECT_FALSE(a.words.advice.empty());
      EXPECT_EQ(a.words.headline.find(" min"), std::string::npos) << a.words.headline;
      EXPECT_EQ(a.words.headline.find("Mann-Kendall"), std::string::npos) << a.words.headline;
      if (a.drive_id == id_of["sdh"] && a.condition == "missing")
        EXPECT_EQ(a.words.headline, "sdh has been missing for 2 days");
      if (a.drive_id == id_of["sdd"] && a.condition == "smart:pending_sectors") {
        auto latest = (*store)->LatestSmart(id_of["sdd"]);
        ASSERT_TRUE(latest.ok() && *latest && (*latest)->pending_sectors);
        const std::string shown = std::to_string(*(*latest)->pending_sectors);
        EXPECT_EQ(a.words.headline.rfind("sdd has " + shown + " sectors", 0), 0u)
            << "the SMART table shows " << shown << "; the alert says: " << a.words.headline;
      }
    }
  }
  RemoveDemo(*setup);
}

}  // namespace
}  // namespace dp
