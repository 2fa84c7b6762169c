// ToolPolicy: the helper's closed list of tools and argument shapes.
#include "app/priv_tool_policy.h"

#include <gtest/gtest.h>

#include "base/command_runner.h"

namespace dp {
namespace {

using Args = std::vector<std::string>;

ToolPolicy Policy() {
  ToolsConfig tools;
  tools.smartctl = "/usr/sbin/smartctl";
  tools.zpool = "/sbin/zpool";
  return ToolPolicy::FromConfig(tools);
}

TEST(ToolPolicyTest, AcceptsTheCommandLinesDiskpulseBuilds) {
  ToolPolicy p = Policy();
  const std::vector<std::pair<std::string, Args>> allowed = {
      {"smartctl", {"-x", "-j", "-n", "standby", "/dev/sda"}},
      {"smartctl", {"-x", "-j", "-n", "standby", "-d", "sat,12", "/dev/sda"}},
      {"smartctl", {"-x", "-j", "-n", "standby", "/dev/disk/by-id/ata-WDC_WD40-68N_WD-WCC7K1"}},
      {"smartctl", {"-j", "-n", "standby", "-t", "short", "/dev/sdb"}},
      {"smartctl", {"-j", "-n", "standby", "-t", "long", "/dev/nvme0"}},
      {"smartctl", {"-j", "-n", "standby", "-c", "-l", "selftest", "/dev/ada0"}},
      {"zpool", {"status", "-j", "--json-int", "-P"}},
      {"zpool", {"status", "-P", "-p"}},
      {"zpool", {"status", "-P"}},
      {"zpool", {"list", "-Hp", "-o", "name,size,allocated"}},
      {"zpool", {"iostat", "-v", "-l", "-p", "-P", "-y", "tank", "5", "1"}},
      {"zpool", {"iostat", "-v", "-l", "-p", "-P", "-y", "my pool.2:x_y-z", "5", "1"}},
      {"zpool", {"status", "-s", "-p", "-P", "tank"}},
      {"zpool", {"get", "-H", "-p", "sit_out", "tank", "all-vdevs"}},
      {"zpool", {"iostat", "-w", "-v", "-p", "-P", "tank"}},
      {"geom", {"disk", "list"}},
      {"geom", {"label", "status"}},
      {"sysctl", {"-n", "kern.disks"}},
      {"diskinfo", {"-v", "ada0"}},
      {"camcontrol", {"devlist", "-v"}},
      {"camcontrol", {"identify", "da3"}},
  };
  for (const auto& [id, args] : allowed) {
    auto argv = p.CheckToolRequest(id, args);
    ASSERT_TRUE(argv.ok()) << id << " " << argv.status().ToString();
    EXPECT_EQ(argv->size(), args.size() + 1);
  }
  // The executable is the configured one, whatever the request says.
  EXPECT_EQ(p.CheckToolRequest("smartctl", allowed[0].second)->front(), "/usr/sbin/smartctl");
  EXPECT_EQ(p.CheckToolRequest("zpool", {"status", "-P"})->front(), "/sbin/zpool");
  EXPECT_EQ(p.IdFor("/usr/sbin/smartctl"), "smartctl");
  EXPECT_EQ(p.IdFor("/bin/sh"), "");
}

TEST(ToolPolicyTest, RefusesToolsOffTheList) {
  ToolPolicy p = Policy();
  for (const std::string id : {"sh", "/bin/sh", "sendmail", "/usr/sbin/smartctl", "", "dd"}) {
    auto argv = p.CheckToolRequest(id, {"-x", "-j", "-n", "standby", "/dev/sda"});
    ASSERT_FALSE(argv.ok()) << id;
    EXPECT_EQ(argv.status().code(), StatusCode::kPermissionDenied);
  }
}

TEST(ToolPolicyTest, RefusesForeignArguments) {
  ToolPolicy p = Policy();
  const std::vector<std::pair<std::string, Args>> refused = {
      {"smartctl", {"-s", "on", "/dev/sda"}},
      {"smartctl", {"--set", "standby,now", "/dev/sda"}},
      {"smartctl", {"-x", "-j", "-n", "standby", "--set=standby,now", "/dev/sda"}},
      {"smartctl", {"-j", "-n", "standby", "-t", "offline", "/dev/sda"}},
      {"smartctl", {"-j", "-n", "standby", "-t", "select,0-max", "/dev/sda"}},
      {"smartctl", {"-j", "-n", "standby", "-t", "short", "-t", "long", "/dev/sda"}},
      {"smartctl", {"-x", "-j", "-n", "never", "/dev/sda"}},  // would wake a sleeping disk
      {"smartctl", {"-x", "-j", "-n", "standby", "/etc/passwd"}},
      {"smartctl", {"-x", "-j", "-n", "standby", "/dev/../etc/shadow"}},
      {"smartctl", {"-x", "-j", "-n", "standby", "-d", "sat;reboot", "/dev/sda"}},
      {"smartctl", {"-x", "-j", "-n", "standby", "-d", "sat"}},
      {"smartctl", {"-x", "-j", "-n", "standby"}},
      {"smartctl", {"-x", "-j", "-n", "standby", "/dev/sda", "/dev/sdb"}},
      {"smartctl", {}},
      {"zpool", {"scrub", "tank"}},
      {"zpool", {"status", "-P", "tank"}},
      {"zpool", {"clear", "tank"}},
      {"zpool", {"iostat", "-v", "-l", "-p", "-P", "-y", "-f", "5", "1"}},
      {"zpool", {"iostat", "-v", "-l", "-p", "-P", "-y", "tank", "5", "100000"}},
      {"zpool", {"iostat", "-v", "-l", "-p", "-P", "-y", "tank;reboot", "5", "1"}},
      {"zpool", {"status", "-s", "-p", "-P", "1tank"}},
      {"zpool", {"status", "-s", "-p", "-P", "tank", "extra"}},
      // Only sit_out is read, of all vdevs; never `set`, never another property.
      {"zpool", {"get", "-H", "-p", "all", "tank", "all-vdevs"}},
      {"zpool", {"get", "-H", "-p", "sit_out", "tank", "sda"}},
      {"zpool", {"get", "-H", "-p", "sit_out", "-o", "all-vdevs"}},
      {"zpool", {"set", "-H", "-p", "sit_out", "tank", "all-vdevs"}},
      {"zpool", {"set", "autosit=on", "tank", "raidz2-0"}},
      {"zpool", {"iostat", "-w", "-v", "-p", "-P", "-tank"}},
      {"zpool", {"iostat", "-w", "-v", "-p", "-P", "tank", "5"}},
      {"geom", {"disk", "list", "-a"}},
      {"diskinfo", {"-v", "/dev/ada0"}},
      {"diskinfo", {"-wS", "ada0"}},
      {"camcontrol", {"identify", "-x"}},
      {"camcontrol", {"standby", "ada0"}},
      {"sysctl", {"-w", "kern.securelevel=-1"}},
  };
  for (const auto& [id, args] : refused) {
    auto argv = p.CheckToolRequest(id, args);
    ASSERT_FALSE(argv.ok()) << id << " " << FormatArgv(args);
    EXPECT_EQ(argv.status().code(), StatusCode::kPermissionDenied);
    EXPECT_NE(argv.status().message().find("not allowed"), std::string::npos)
        << argv.status().message();
  }
}

TEST(ToolPolicyTest, SharedExecutableMapsByArgumentShape) {
  ToolsConfig tools;
  tools.smartctl = tools.zpool = tools.geom = tools.diskinfo = tools.camcontrol = "/opt/stand-in";
  ToolPolicy p = ToolPolicy::FromConfig(tools);
  EXPECT_EQ(p.IdFor("/opt/stand-in", {"status", "-P"}), "zpool");
  EXPECT_EQ(p.IdFor("/opt/stand-in", {"-x", "-j", "-n", "standby", "/dev/sda"}), "smartctl");
  EXPECT_FALSE(p.IdFor("/opt/stand-in", {"--evil"}).empty());  // refused by the helper later
}

}  // namespace
}  // namespace dp
