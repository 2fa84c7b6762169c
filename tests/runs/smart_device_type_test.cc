// A drive behind a RAID controller gets the `smartctl -d TYPE` its config
// override names, in the daemon's SMART reads and in its self-tests, and the
// privileged helper accepts exactly those command lines.
#include <gtest/gtest.h>

#include "app/priv_tool_policy.h"
#include "base/replay_command_runner.h"
#include "config/config.h"
#include "runs/smart_jobs.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

// The Seagate ST6000NM0115 of this capture sits behind a MegaRAID
// controller: smartctl reads it only with -d sat+megaraid,14.
constexpr const char* kCapture = "smartctl/megaraid-sat-hdd-seagate-ST6000NM0115.json";

Config WithOverride(const std::string& overrides) {
  auto c = ParseConfig(R"({"overrides": )" + overrides + "}", "diskpulse.json");
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return c.ok() ? *c : Config{};
}

Drive Behind() {
  Drive d;
  d.id = "ST6000NM0115-1YZ110_ZAD2C11G";
  d.name = "sdb";
  d.dev_path = "/dev/sdb";
  d.model = "ST6000NM0115-1YZ110";
  d.serial = "ZAD2C11G";
  d.transport = "sas";
  return d;
}

const std::vector<std::string> kRead = {"smartctl", "-x", "-j", "-n", "standby",
                                        "-d", "sat+megaraid,14", "/dev/sdb"};

TEST(SmartDeviceType, TheOverridesTypeReachesTheSmartReadArgv) {
  ReplayCommandRunner runner;
  runner.AddOutput(kRead, testing::ReadFile(testing::FixturePath(kCapture)), 4);
  Config c = WithOverride(R"([{"serial": "ZAD2C11G", "device_type": "sat+megaraid,14",
                              "reason": "behind the MegaRAID"}])");
  auto r = ReadDriveSmart(c, runner, Behind());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->snapshot.serial, "ZAD2C11G");
  ASSERT_EQ(runner.calls().size(), 1u);
  EXPECT_EQ(runner.calls()[0], kRead);
}

TEST(SmartDeviceType, WithoutTheOverrideSmartctlIsLeftToGuess) {
  ReplayCommandRunner runner;
  runner.AddOutput(kRead, testing::ReadFile(testing::FixturePath(kCapture)), 4);
  Config c = WithOverride(R"([{"serial": "SOMEONE-ELSE", "device_type": "sat"}])");
  auto r = ReadDriveSmart(c, runner, Behind());
  EXPECT_FALSE(r.ok());  // the recorded argv has -d; this one has none
  ASSERT_EQ(runner.calls().size(), 1u);
  EXPECT_EQ(runner.calls()[0],
            (std::vector<std::string>{"smartctl", "-x", "-j", "-n", "standby", "/dev/sdb"}));
}

TEST(SmartDeviceType, SelfTestsUseTheTypeAndTheHelperAllowsEveryLine) {
  testing::TempDir tmp;
  auto store = Store::Open(tmp.Path("dp.db"));
  ASSERT_TRUE(store.ok());
  ReplayCommandRunner runner;
  const std::vector<std::string> start = {"smartctl", "-j", "-n", "standby", "-t", "short",
                                          "-d", "sat+megaraid,14", "/dev/sdb"};
  const std::vector<std::string> poll = {"smartctl", "-j", "-n", "standby", "-c", "-l", "selftest",
                                         "-d", "sat+megaraid,14", "/dev/sdb"};
  // The capture is an -x read: it carries the self-test log and capabilities
  // the start and the poll parse.
  const std::string text = testing::ReadFile(testing::FixturePath(kCapture));
  runner.AddOutput(start, text, 4);
  runner.AddOutput(poll, text, 4);
  Config c = WithOverride(R"([{"model": "ST6000NM0115*", "device_type": "sat+megaraid,14"}])");
  (void)StartDriveSelfTest(c, runner, **store, Behind(), SelfTestKind::kShort);
  (void)PollDriveSelfTest(c, runner, Behind());
  ASSERT_EQ(runner.calls().size(), 2u);
  EXPECT_EQ(runner.calls()[0], start);
  EXPECT_EQ(runner.calls()[1], poll);

  const ToolPolicy policy = ToolPolicy::FromConfig(c.tools);
  for (const auto& argv : {kRead, start, poll}) {
    auto checked = policy.CheckToolRequest("smartctl", {argv.begin() + 1, argv.end()});
    EXPECT_TRUE(checked.ok()) << checked.status().ToString();
  }
}

}  // namespace
}  // namespace dp
