// What the health endpoint and the page say a container cannot see
// (AccessNotes): no drive passed in, drives without a device node, SMART
// refused. The end-to-end check is tests/packaging/container_test.sh.
#include <filesystem>

#include <gtest/gtest.h>
#include <stdlib.h>

#include "support/temp_dir.h"
#include "watch/discovery.h"

namespace dp {
namespace {

Drive At(const std::string& path) {
  Drive d;
  d.id = "id-" + path;
  d.dev_path = path;
  d.name = path.substr(path.rfind('/') + 1);
  d.transport = "sata";
  return d;
}

// The image declares itself; a machine that merely is a container (CI) does
// not count.
TEST(AccessNotes, InContainerOnlyWhenTheImageSaysSo) {
  const char* before = std::getenv("DISKPULSE_CONTAINER");
  const std::string saved = before ? before : "";
  ::unsetenv("DISKPULSE_CONTAINER");
  EXPECT_FALSE(InContainer());
  ::setenv("DISKPULSE_CONTAINER", "0", 1);
  EXPECT_FALSE(InContainer());
  ::setenv("DISKPULSE_CONTAINER", "1", 1);
  EXPECT_TRUE(InContainer());
  if (before) ::setenv("DISKPULSE_CONTAINER", saved.c_str(), 1);
  else ::unsetenv("DISKPULSE_CONTAINER");
}

TEST(AccessNotes, NothingOnAHost) {
  DiscoveryReport r;  // no drives, SMART failed: a host's discovery warnings say so
  r.smart_failed = 2;
  EXPECT_TRUE(AccessNotes(r, false).empty());
}

TEST(AccessNotes, NoDriveInAContainerSaysHowToPassOne) {
  DiscoveryReport r;
  auto notes = AccessNotes(r, true);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("No drives are visible in this container"), std::string::npos);
  EXPECT_NE(notes[0].find("--device /dev/sdX"), std::string::npos);
}

TEST(AccessNotes, NamesTheDrivesWithoutANodeOnly) {
  DiscoveryReport r;
  r.drives = {At("/dev/null"), At("/dev/diskpulse-test-not-passed-in")};
  Drive file = At("/var/tmp/diskpulse-test-absent-file");
  file.transport = "file";  // a file target has no node to pass
  r.drives.push_back(file);
  auto notes = AccessNotes(r, true);
  ASSERT_EQ(notes.size(), 1u) << notes[0];
  EXPECT_NE(notes[0].find("1 of 3 drives have no device node in this container "
                          "(/dev/diskpulse-test-not-passed-in)"),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("--device"), std::string::npos);
  EXPECT_EQ(notes[0].find("/dev/null"), std::string::npos);
}

TEST(AccessNotes, SmartRefusedNamesTheCapability) {
  DiscoveryReport r;
  r.drives = {At("/dev/null"), At("/dev/zero")};
  r.smart_failed = 2;
  r.drive_problems["id-/dev/null"] =
      "SMART: permission denied: smartctl: /dev/null: Permission denied";
  // Not a refusal: smartctl cannot drive this device whatever it is allowed.
  r.drive_problems["id-/dev/zero"] =
      "SMART: invalid argument: smartctl refused the request: /dev/zero: Unable to detect device type";
  auto notes = AccessNotes(r, true);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("SMART was refused for 1 drives"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("--cap-add SYS_RAWIO"), std::string::npos);
}

// A host with ZFS (sysfs/module/zfs): /dev/zfs not passed in is named; a
// module whose major.minor differs from the image's zpool is named with both.
TEST(ZfsAccessNotes, DevZfsMissingAndVersionsThatDisagree) {
  dp::testing::TempDir t;
  const std::string sys = t.path() / "sys", dev = t.path() / "dev";
  std::filesystem::create_directories(dev);
  EXPECT_TRUE(ZfsAccessNotes(sys, dev, "2.3.2").empty());  // no ZFS on the host
  t.Write("sys/module/zfs/version", "2.2.4-1\n");
  auto missing = ZfsAccessNotes(sys, dev, "2.3.2");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_NE(missing[0].find("--device /dev/zfs"), std::string::npos) << missing[0];
  t.Write("dev/zfs", "");
  auto differ = ZfsAccessNotes(sys, dev, "2.3.2-2~bpo12+2");
  ASSERT_EQ(differ.size(), 1u);
  EXPECT_NE(differ[0].find("module is 2.2.4-1 and this image's zpool is 2.3.2-2~bpo12+2"),
            std::string::npos)
      << differ[0];
  EXPECT_TRUE(ZfsAccessNotes(sys, dev, "2.2.7").empty());  // 2.2 and 2.2 agree
  t.Write("sys/module/zfs/version", "2.3.1-1\n");
  EXPECT_TRUE(ZfsAccessNotes(sys, dev, "2.3.2-2~bpo12+2").empty());
}

}  // namespace
}  // namespace dp
