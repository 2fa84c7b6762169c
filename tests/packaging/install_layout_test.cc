// What `cmake --install` writes besides the binaries and the web page
// (cmake/install_service_files.cmake, run here on its own into a staging
// folder): FreeBSD's layout (rc.d script, /var/db) and Linux's with prefix
// /usr (the .deb: /etc, systemd unit with /usr/sbin), and the FreeBSD port
// skeleton in contrib/freebsd listing exactly what the install produces.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "support/daemon_process.h"

namespace dp {
namespace {

namespace fs = std::filesystem;
using namespace dp::testing;

const std::string kSource = DP_SOURCE_DIR;

// Runs the install-time script for `system` with `prefix` into tmp/stage;
// returns the files it staged, relative to the prefix.
std::set<std::string> Stage(const TempDir& tmp, const std::string& system,
                            const std::string& prefix) {
  fs::create_directories(tmp.path() / "bin");
  auto r = RunProgram({"/bin/sh", "-c",
                       "cmake -DCMAKE_INSTALL_PREFIX=" + prefix + " -DDP_SOURCE_DIR='" + kSource +
                           "' -DDP_BINARY_DIR='" + tmp.Path("bin") + "' -DDP_SYSTEM=" + system +
                           " -DDP_SBINDIR=sbin -DDP_DATADIR=share -P '" + kSource +
                           "/cmake/install_service_files.cmake' 2>&1"},
                      60s, {"DESTDIR=" + tmp.Path("stage")});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::set<std::string> out;
  fs::path root = tmp.path() / "stage";
  if (!fs::exists(root)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out.insert("/" + fs::relative(e.path(), root).string());
  return out;
}

TEST(InstallLayout, FreeBsdGetsTheRcdScriptAndVarDb) {
  TempDir tmp;
  auto files = Stage(tmp, "FreeBSD", "/usr/local");
  EXPECT_EQ(files, (std::set<std::string>{"/usr/local/etc/diskpulse/diskpulse.json.example",
                                          "/usr/local/etc/rc.d/diskpulsed"}));
  std::string rc = ReadFile(tmp.Path("stage/usr/local/etc/rc.d/diskpulsed"));
  EXPECT_NE(rc.find("command=\"/usr/local/sbin/diskpulsed\""), std::string::npos) << rc;
  struct stat st {};
  ASSERT_EQ(::stat(tmp.Path("stage/usr/local/etc/rc.d/diskpulsed").c_str(), &st), 0);
  EXPECT_TRUE(st.st_mode & S_IXOTH) << "rc.d scripts must be executable";
  std::string example = ReadFile(tmp.Path("stage/usr/local/etc/diskpulse/diskpulse.json.example"));
  EXPECT_NE(example.find("\"/var/db/diskpulse/diskpulse.db\""), std::string::npos);
  EXPECT_NE(example.find("\"/usr/local/share/diskpulse/webui\""), std::string::npos);
}

TEST(InstallLayout, PrefixUsrPutsTheConfigurationInEtc) {
  TempDir tmp;
  auto files = Stage(tmp, "Linux", "/usr");
  EXPECT_EQ(files, (std::set<std::string>{"/etc/diskpulse/diskpulse.json.example",
                                          "/usr/lib/systemd/system/diskpulsed.service"}));
  std::string unit = ReadFile(tmp.Path("stage/usr/lib/systemd/system/diskpulsed.service"));
  EXPECT_NE(unit.find("ExecStart=/usr/sbin/diskpulsed -c /etc/diskpulse/diskpulse.json"),
            std::string::npos)
      << unit;
  EXPECT_NE(unit.find("ConditionPathExists=/etc/diskpulse/diskpulse.json"), std::string::npos);
  EXPECT_EQ(unit.find("/usr/local"), std::string::npos) << unit;
  std::string example = ReadFile(tmp.Path("stage/etc/diskpulse/diskpulse.json.example"));
  EXPECT_NE(example.find("\"/var/lib/diskpulse/diskpulse.db\""), std::string::npos);
}

TEST(FreeBsdPort, PlistMatchesTheInstall) {
  const std::string port = kSource + "/contrib/freebsd/sysutils/diskpulse";
  std::istringstream plist(ReadFile(port + "/pkg-plist"));
  std::set<std::string> listed;
  std::string line, dirs;
  while (std::getline(plist, line)) {
    if (line.rfind("@sample", 0) == 0) {
      std::istringstream words(line.substr(line.find(' ') + 1));
      std::string example;
      words >> example;
      listed.insert("/usr/local/" + example);
    } else if (line.rfind("@dir", 0) == 0) {
      dirs += line.substr(line.find(' ') + 1) + "\n";
    } else if (!line.empty()) {
      listed.insert("/usr/local/" + line);
    }
  }
  TempDir tmp;
  std::set<std::string> installed = Stage(tmp, "FreeBSD", "/usr/local");
  installed.insert("/usr/local/bin/diskpulse");    // the two binaries (install(TARGETS))
  installed.insert("/usr/local/sbin/diskpulsed");
  EXPECT_EQ(listed, installed);
  EXPECT_EQ(dirs, "/var/db/diskpulse\n");
  // The state folder belongs to the user the daemon drops to.
  EXPECT_NE(plist.str().find("@dir(diskpulse,diskpulse,0750) /var/db/diskpulse"), std::string::npos);
  // The configuration holds tokens: root's, read by the daemon's group, no
  // one else (pkg copies the sample with its owner and mode).
  EXPECT_NE(plist.str().find("@sample(root,diskpulse,0640) etc/diskpulse/diskpulse.json.example "
                             "etc/diskpulse/diskpulse.json"),
            std::string::npos)
      << plist.str();

  std::string makefile = ReadFile(port + "/Makefile");
  for (const char* needle : {"PORTNAME=\tdiskpulse", "USES=\t\tcmake", "PORTDATA=\twebui",
                             "RUN_DEPENDS=\tsmartctl:sysutils/smartmontools",
                             ".include <bsd.port.mk>"})
    EXPECT_NE(makefile.find(needle), std::string::npos) << needle;
  std::string version = "DISTVERSION=\t" DP_VERSION "\n";
  EXPECT_NE(makefile.find(version), std::string::npos) << "the port's version is not " DP_VERSION;

  std::istringstream descr(ReadFile(port + "/pkg-descr"));
  int lines = 0;
  while (std::getline(descr, line)) {
    ++lines;
    EXPECT_LE(line.size(), 80u) << line;
  }
  EXPECT_GT(lines, 3);
}

}  // namespace
}  // namespace dp
