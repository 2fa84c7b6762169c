// Bad input gets a clear message and a non-zero exit, never a crash: the
// real diskpulsed with broken configurations, busy ports, unusable database
// folders and files, and a second instance.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "store/store.h"
#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/staged_binary.h"

namespace dp {
namespace {

using namespace dp::testing;

// Runs `diskpulsed -c FILE --foreground` and expects it to fail fast.
ProgramResult RunDaemon(const std::string& config_path, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {DP_DAEMON_BIN, "-c", config_path, "--foreground"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return RunProgram(argv, 20s);
}

std::string WriteConfig(const TempDir& tmp, const nlohmann::json& patch) {
  nlohmann::json c = DaemonProcess::DefaultConfig(tmp.path());
  if (!patch.is_null()) c.merge_patch(patch);
  return tmp.Write("diskpulse.json", c.dump(2));
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(DaemonStartup, VersionAndHelp) {
  auto v = RunProgram({DP_DAEMON_BIN, "--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.output, "diskpulsed " DP_VERSION "\n");
  auto h = RunProgram({DP_DAEMON_BIN, "--help"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_TRUE(Contains(h.output, "--check-config"));
  auto bad = RunProgram({DP_DAEMON_BIN, "--bogus"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(Contains(bad.output, "unknown argument '--bogus'")) << bad.output;
}

TEST(DaemonStartup, CheckConfigReportsEveryProblemWithFileAndLine) {
  TempDir tmp;
  std::string path = tmp.Write("bad.json",
                               "{\n"
                               "  \"lisen\": \"127.0.0.1:8470\",\n"
                               "  \"http\": {\n"
                               "    \"max_connections\": \"many\"\n"
                               "  }\n"
                               "}\n");
  auto r = RunProgram({DP_DAEMON_BIN, "--check-config", "-c", path});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, path + ":2: lisen: unknown key")) << r.output;
  EXPECT_TRUE(Contains(r.output, path + ":4: http.max_connections: expected a number")) << r.output;
  EXPECT_FALSE(Contains(r.output, "configuration OK"));
}

TEST(DaemonStartup, CheckConfigOkDoesNotStartAnything) {
  TempDir tmp;
  std::string path = WriteConfig(tmp, {});
  auto r = RunProgram({DP_DAEMON_BIN, "--check-config", "-c", path});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "configuration OK\n");
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "var"));  // no database created
}

TEST(DaemonStartup, MissingConfigFile) {
  TempDir tmp;
  auto r = RunDaemon(tmp.Path("nope.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, tmp.Path("nope.json") + ": cannot read configuration"))
      << r.output;
  EXPECT_TRUE(Contains(r.output, "No such file or directory")) << r.output;
}

TEST(DaemonStartup, MalformedJsonSaysLineAndColumn) {
  TempDir tmp;
  std::string path = tmp.Write("c.json", "{\n  \"listen\": \"127.0.0.1:0\",\n  oops\n}\n");
  auto r = RunDaemon(path);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, path + ":3:3: malformed JSON")) << r.output;
}

TEST(DaemonStartup, UnknownKey) {
  TempDir tmp;
  auto r = RunDaemon(WriteConfig(tmp, {{"databse", "/tmp/x.db"}}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "databse: unknown key")) << r.output;
}

TEST(DaemonStartup, WrongType) {
  TempDir tmp;
  auto r = RunDaemon(WriteConfig(tmp, {{"listen", 8470}}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "listen: expected a string, found an integer")) << r.output;
}

TEST(DaemonStartup, PortInUse) {
  TempDir tmp;
  TcpListener busy;
  ASSERT_GT(busy.port(), 0);
  std::string listen = "127.0.0.1:" + std::to_string(busy.port());
  auto r = RunDaemon(WriteConfig(tmp, {{"listen", listen}}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "diskpulsed: " + listen + ": address already in use"))
      << r.output;
  // Nothing is left behind that would block the next start.
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "var" / "diskpulsed.pid"));
}

TEST(DaemonStartup, DatabaseFolderIsCreatedWhenItsParentExists) {
  TempDir tmp;
  auto d = DaemonProcess::Start(
      tmp, {{"database", tmp.Path("state/dp.db")}, {"pidfile", tmp.Path("dp.pid")}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_TRUE(std::filesystem::exists(tmp.path() / "state" / "dp.db"));
}

TEST(DaemonStartup, DatabaseFolderThatCannotBeCreated) {
  TempDir tmp;
  tmp.Write("plainfile", "x");
  auto r = RunDaemon(WriteConfig(tmp, {{"database", tmp.Path("plainfile/var/dp.db")}}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, tmp.Path("plainfile/var") + ": the database directory"))
      << r.output;
}

TEST(DaemonStartup, UnwritableDatabaseFolder) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "ro");
  ASSERT_EQ(::chmod(tmp.Path("ro").c_str(), 0555), 0);
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0755), 0);
  std::string config = WriteConfig(tmp, {{"database", tmp.Path("ro/dp.db")}, {"pidfile", ""}});
  ::chmod(config.c_str(), 0644);
  ProgramResult r;
  if (::geteuid() == 0) {
    // Root writes anywhere; run the daemon as nobody to see the refusal.
    // nobody may not reach the build tree (a clone under root's 0700 home):
    // it runs a copy staged where it can.
    if (::access("/usr/bin/setpriv", X_OK) != 0)
      DP_SKIP_WITHOUT("setpriv", "needs setpriv (util-linux)");
    auto daemon = dp::testing::StagedBinary::Create(DP_DAEMON_BIN, 65534, 65534);
    if (!daemon.ok())
      DP_SKIP_WITHOUT("uid 65534 running a staged copy",
                      "uid 65534 cannot run a copy of diskpulsed: " << daemon.status().ToString());
    r = RunProgram({"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    (*daemon)->path(), "-c", config, "--foreground"},
                   20s);
  } else {
    r = RunDaemon(config);
  }
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, tmp.Path("ro") + ": the database directory is not writable"))
      << r.output;
  ::chmod(tmp.Path("ro").c_str(), 0755);
}

TEST(DaemonStartup, DatabaseThatIsNotSqliteIsRefusedAndKept) {
  TempDir tmp;
  std::string junk;
  for (int i = 0; i < 200; ++i) junk += "this is a holiday photo, not a database\n";
  std::string db = tmp.Write("var/diskpulse.db", junk);
  auto r = RunDaemon(WriteConfig(tmp, {}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "not a diskpulse database")) << r.output;
  EXPECT_TRUE(Contains(r.output, db)) << r.output;
  EXPECT_EQ(ReadFile(db), junk);
}

TEST(DaemonStartup, AnOverrideOfADriveTheDatabaseNeverSawIsAConfigErrorAtItsLine) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.Path("var"));
  {
    auto store = Store::Open(tmp.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive d;
    d.id = "wwn-5000c500a1b2c3d4";
    d.name = "sda";
    d.serial = "ZA1ABCDE";
    ASSERT_TRUE((*store)->UpsertDrive(d, 1).ok());
  }
  const std::string path = WriteConfig(
      tmp, {{"overrides", {{{"serial", "ZA1ABCDE"}, {"attribute", "199"}, {"ignore", true}},
                           {{"serial", "ZA1ABCDF"}, {"attribute", "199"}, {"ignore", true}}}}});
  const std::string text = ReadFile(path);
  // The line of the second "serial" in the file as written.
  const std::size_t second = text.find("\"serial\"", text.find("\"serial\"") + 1);
  const long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(second), '\n');
  auto r = RunDaemon(path);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, path + ":" + std::to_string(line) +
                                     ": overrides[1].serial: no known drive has serial 'ZA1ABCDF'"))
      << r.output;
  EXPECT_FALSE(Contains(r.output, "overrides[0]")) << r.output;
}

TEST(DaemonStartup, SecondInstanceOnTheSameDatabase) {
  TempDir tmp;
  auto first = DaemonProcess::Start(tmp);
  ASSERT_TRUE(first.ok()) << first.status().message();
  TempDir other;
  auto r = RunDaemon(WriteConfig(other, {{"database", tmp.Path("var/diskpulse.db")}}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "is in use by another diskpulsed")) << r.output;
  EXPECT_TRUE(Contains(r.output, "process " + std::to_string((*first)->pid()))) << r.output;
  // The first one is unharmed.
  EXPECT_EQ(HttpGet((*first)->port(), "/api/v1/health").status, 200);
}

TEST(DaemonStartup, SecondInstanceOnTheSamePidfile) {
  TempDir tmp;
  auto first = DaemonProcess::Start(tmp);
  ASSERT_TRUE(first.ok()) << first.status().message();
  TempDir other;
  auto r = RunDaemon(WriteConfig(other, {{"pidfile", tmp.Path("var/diskpulsed.pid")}}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "diskpulsed is already running")) << r.output;
  EXPECT_EQ(ReadFile(tmp.Path("var/diskpulsed.pid")), std::to_string((*first)->pid()) + "\n");
}

TEST(DaemonStartup, BadTlsFilesAreNamed) {
  TempDir tmp;
  tmp.Write("cert.pem", "not a certificate");
  auto r = RunDaemon(WriteConfig(
      tmp, {{"tls", {{"cert_file", tmp.Path("cert.pem")}, {"key_file", tmp.Path("key.pem")}}}}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "tls.cert_file: " + tmp.Path("cert.pem"))) << r.output;
}

}  // namespace
}  // namespace dp
