// The FreeBSD port (contrib/freebsd/sysutils/diskpulse) runs the daemon
// unprivileged, as far as that can be checked without FreeBSD: its
// post-patch edit of the example configuration gives a valid configuration
// naming the port's user, and its pkg-install script creates that user (and
// its group) once, through pw(8) stubbed by a script that records its
// arguments. (Its plist: tests/packaging/install_layout_test.cc.)
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "config/config.h"
#include "support/daemon_process.h"

namespace dp {
namespace {

using namespace dp::testing;
namespace fs = std::filesystem;

const std::string kPort = std::string(DP_SOURCE_DIR) + "/contrib/freebsd/sysutils/diskpulse";

std::string MakeVariable(const std::string& makefile, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(makefile, m, std::regex("\\n" + name + "=\\t+([^\\n]*)"))) return "";
  return m[1];
}

TEST(FreeBsdPortUser, InstalledConfigurationNamesThePortsUser) {
  std::string makefile = ReadFile(kPort + "/Makefile");
  std::string user = MakeVariable(makefile, "DISKPULSE_USER");
  ASSERT_EQ(user, "diskpulse");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(makefile, m, std::regex("REINPLACE_CMD\\} -e '([^']*)'")))
      << makefile;
  std::string expr = std::regex_replace(std::string(m[1]), std::regex("\\$\\{DISKPULSE_USER\\}"), user);
  TempDir tmp;
  auto r = RunProgram({"/bin/sed", "-e", expr, std::string(DP_SOURCE_DIR) + "/config/diskpulse.json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto config = ParseConfig(r.output, "diskpulse.json");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->user, "diskpulse");
}

class PkgInstallTest : public ::testing::Test {
 protected:
  // Runs pkg-install with pw stubbed: `show_answers` is the exit status of
  // groupshow/usershow (1: no such group/user). The stub's calls, one a line.
  std::string Run(int show_answers) {
    std::string script = ReadFile(kPort + "/files/pkg-install.in");
    std::string user = MakeVariable(ReadFile(kPort + "/Makefile"), "DISKPULSE_USER");
    script = std::regex_replace(script, std::regex("%%DISKPULSE_USER%%"), user);
    std::string path = tmp_.Write("pkg-install", script);
    std::string log = tmp_.Path("pw.log");
    std::string pw = tmp_.Write("pw", "#!/bin/sh\necho \"$*\" >>'" + log + "'\n"
                                      "case \"$1\" in *show) exit " +
                                          std::to_string(show_answers) + ";; esac\nexit 0\n");
    fs::permissions(pw, fs::perms::owner_all);
    fs::remove(log);
    auto r = RunProgram({"/bin/sh", path, "diskpulse-0.1.0", "PRE-INSTALL"}, 10s, {"PW=" + pw});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return fs::exists(log) ? ReadFile(log) : "";
  }
  TempDir tmp_;
};

TEST_F(PkgInstallTest, CreatesAnUnprivilegedUserOnce) {
  std::string calls = Run(1);
  EXPECT_NE(calls.find("groupadd diskpulse\n"), std::string::npos) << calls;
  EXPECT_NE(calls.find("useradd diskpulse -g diskpulse"), std::string::npos) << calls;
  EXPECT_NE(calls.find("-s /usr/sbin/nologin -h -"), std::string::npos) << calls;
  // Present already (an upgrade): nothing is added.
  std::string again = Run(0);
  EXPECT_EQ(again.find("add"), std::string::npos) << again;
}

}  // namespace
}  // namespace dp
