// CgroupThrottle's choice of kernel interface and the files it writes, against
// temp folders laid out like cgroupfs (the real v2 io controller is not
// available on every test machine; the loop-device tests use whichever is).
#include "support/cgroup_throttle.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.h"

namespace dp::testing {
namespace {

std::string Trimmed(const std::string& path) {
  std::string s = ReadFile(path);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// A fake machine: /proc, a mounts table, and whichever hierarchies a test adds.
struct FakeCgroupFs {
  TempDir dir;
  CgroupFs fs;
  FakeCgroupFs() {
    fs.blkio_v1 = dir.Path("sys/fs/cgroup/blkio");
    fs.mounts_file = dir.Write("proc/self/mounts", "");
    fs.proc_root = dir.Path("proc");
  }
  void AddV1Blkio() { dir.Write("sys/fs/cgroup/blkio/blkio.throttle.read_bps_device", ""); }
  // A cgroup2 mount at sys/fs/cgroup/<at>, listed in the mounts table.
  std::string AddV2(const std::string& at, const std::string& controllers,
                    const std::string& subtree = "") {
    std::string root = dir.Path("sys/fs/cgroup" + (at.empty() ? "" : "/" + at));
    dir.Write("sys/fs/cgroup" + (at.empty() ? "" : "/" + at) + "/cgroup.controllers",
              controllers + "\n");
    dir.Write("sys/fs/cgroup" + (at.empty() ? "" : "/" + at) + "/cgroup.subtree_control",
              subtree + "\n");
    dir.Write("proc/self/mounts", "sysfs /sys sysfs rw 0 0\ncgroup2 " + root +
                                      " cgroup2 rw,nosuid 0 0\n");
    return root;
  }
};

TEST(CgroupThrottleTest, IoMaxLineStatesEveryLimitAndMaxForNone) {
  EXPECT_EQ(FormatIoMax(7, 3, {}), "7:3 rbps=max wbps=max riops=max wiops=max");
  DeviceLimits l;
  l.read_bps = 40000000;
  l.write_iops = 12;
  EXPECT_EQ(FormatIoMax(259, 0, l), "259:0 rbps=40000000 wbps=max riops=max wiops=12");
}

TEST(CgroupThrottleTest, PrefersV1BlkioWhenPresent) {
  FakeCgroupFs f;
  f.AddV1Blkio();
  f.AddV2("unified", "cpu io memory", "io");
  auto c = CgroupThrottle::Choose(f.fs);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->kind, ThrottleKind::kV1Blkio);
  EXPECT_EQ(c->root, f.fs.blkio_v1);
}

TEST(CgroupThrottleTest, FallsBackToV2IoMaxFoundInTheMountsTable) {
  FakeCgroupFs f;
  std::string root = f.AddV2("", "cpuset cpu io memory pids");
  auto c = CgroupThrottle::Choose(f.fs);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->kind, ThrottleKind::kV2IoMax);
  EXPECT_EQ(c->root, root);
}

TEST(CgroupThrottleTest, SaysWhyNeitherInterfaceWorks) {
  FakeCgroupFs none;
  auto c = CgroupThrottle::Choose(none.fs);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("no cgroup v1 blkio controller at " + none.fs.blkio_v1),
            std::string::npos)
      << c.status().message();
  EXPECT_NE(c.status().message().find("no cgroup2 file system mounted"), std::string::npos);

  // This machine's hybrid layout: cgroup2 at unified/ without io.
  FakeCgroupFs hybrid;
  std::string root = hybrid.AddV2("unified", "hugetlb");
  c = CgroupThrottle::Choose(hybrid.fs);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("the cgroup2 hierarchy at " + root +
                                      " has no io controller (cgroup.controllers: 'hugetlb')"),
            std::string::npos)
      << c.status().message();
  // "iocost"-like words are not the io controller.
  FakeCgroupFs near;
  near.AddV2("", "iocost cpu");
  EXPECT_FALSE(CgroupThrottle::Choose(near.fs).ok());
}

TEST(CgroupThrottleTest, V2WritesWholeIoMaxLinesAndUndoesEverythingOnTeardown) {
  FakeCgroupFs f;
  std::string root = f.AddV2("", "cpu io memory", "cpu memory");
  // The process to throttle lives in a systemd slice.
  const pid_t pid = 4242;
  f.dir.Write("proc/4242/cgroup", "0::/user.slice/session-1.scope\n");
  f.dir.Write("sys/fs/cgroup/user.slice/session-1.scope/cgroup.procs", "");
  std::string io_max;
  {
    auto cg = CgroupThrottle::Create(f.fs);
    ASSERT_TRUE(cg.ok()) << cg.status().ToString();
    EXPECT_EQ((*cg)->kind(), ThrottleKind::kV2IoMax);
    EXPECT_EQ((*cg)->path().rfind(root + "/diskpulse-test-", 0), 0u) << (*cg)->path();
    EXPECT_NE((*cg)->Describe().find("cgroup v2 io.max"), std::string::npos);
    // io was handed down to children (a plain file keeps only the last write).
    EXPECT_EQ(Trimmed(root + "/cgroup.subtree_control"), "+io");
    io_max = (*cg)->path() + "/io.max";

    ASSERT_TRUE((*cg)->SetReadBps(7, 3, 40000000).ok());
    EXPECT_EQ(Trimmed(io_max), "7:3 rbps=40000000 wbps=max riops=max wiops=max");
    ASSERT_TRUE((*cg)->SetReadIops(7, 3, 150).ok());
    EXPECT_EQ(Trimmed(io_max), "7:3 rbps=40000000 wbps=max riops=150 wiops=max");
    ASSERT_TRUE((*cg)->SetWriteBps(7, 3, 1000).ok());
    ASSERT_TRUE((*cg)->SetReadBps(7, 3, 0).ok());
    EXPECT_EQ(Trimmed(io_max), "7:3 rbps=max wbps=1000 riops=150 wiops=max");

    ASSERT_TRUE((*cg)->AddProcess(pid).ok());
    EXPECT_EQ(Trimmed((*cg)->path() + "/cgroup.procs"), "4242");
  }
  // Teardown: back to its slice, limits cleared.
  EXPECT_EQ(Trimmed(root + "/user.slice/session-1.scope/cgroup.procs"), "4242");
  EXPECT_EQ(Trimmed(io_max), "7:3 rbps=max wbps=max riops=max wiops=max");
}

TEST(CgroupThrottleTest, V2LeavesSubtreeControlAloneWhenIoIsAlreadyOn) {
  FakeCgroupFs f;
  std::string root = f.AddV2("", "cpu io", "cpu io");
  auto cg = CgroupThrottle::Create(f.fs);
  ASSERT_TRUE(cg.ok()) << cg.status().ToString();
  EXPECT_EQ(Trimmed(root + "/cgroup.subtree_control"), "cpu io");
}

TEST(CgroupThrottleTest, V1WritesOneFilePerLimit) {
  FakeCgroupFs f;
  f.AddV1Blkio();
  f.dir.Write("proc/4242/cgroup", "9:name=systemd:/\n7:blkio:/machine\n0::/\n");
  f.dir.Write("sys/fs/cgroup/blkio/machine/cgroup.procs", "");
  std::string path;
  {
    auto cg = CgroupThrottle::Create(f.fs);
    ASSERT_TRUE(cg.ok()) << cg.status().ToString();
    EXPECT_EQ((*cg)->kind(), ThrottleKind::kV1Blkio);
    path = (*cg)->path();
    ASSERT_TRUE((*cg)->SetReadBps(7, 3, 40000000).ok());
    ASSERT_TRUE((*cg)->SetReadIops(7, 3, 150).ok());
    EXPECT_EQ(Trimmed(path + "/blkio.throttle.read_bps_device"), "7:3 40000000");
    EXPECT_EQ(Trimmed(path + "/blkio.throttle.read_iops_device"), "7:3 150");
    EXPECT_FALSE(std::filesystem::exists(path + "/io.max"));
    ASSERT_TRUE((*cg)->AddProcess(4242).ok());
  }
  EXPECT_EQ(Trimmed(f.fs.blkio_v1 + "/machine/cgroup.procs"), "4242");
  EXPECT_EQ(Trimmed(path + "/blkio.throttle.read_bps_device"), "7:3 0");
  EXPECT_EQ(Trimmed(path + "/blkio.throttle.read_iops_device"), "7:3 0");
}

}  // namespace
}  // namespace dp::testing
