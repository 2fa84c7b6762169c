// The privileged helper over a real socketpair in a real forked process:
// read-only descriptors for disk devices only (SCM_RIGHTS), tools only from
// the allow-list with diskpulse's own argument shapes, malformed requests
// answered with an error, and the helper gone when the client closes.
#include "app/priv_helper.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "app/priv_client.h"
#include "app/priv_protocol.h"
#include "bench/aligned_buffer.h"
#include "support/capability.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::LoopDevice;
using dp::testing::TempDir;

class PrivHelperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Stand-in tools: "smartctl" echoes its arguments, "zpool" exits 1,
    // "geom" prints 300 000 bytes (a reply in many packets).
    ToolsConfig tools;
    tools.smartctl = "/bin/echo";
    tools.zpool = "/bin/false";
    tools.geom = dir_.Write("geom", "#!/bin/sh\nhead -c 300000 /dev/zero | tr '\\0' g\n");
    ::chmod(tools.geom.c_str(), 0755);
    policy_ = ToolPolicy::FromConfig(tools);
    int sv[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
    pid_ = ::fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      ::close(sv[0]);
      PosixCommandRunner runner;
      ServePrivRequests(sv[1], policy_, runner);
      ::_exit(0);
    }
    ::close(sv[1]);
    channel_ = std::make_unique<PrivChannel>(sv[0]);
  }

  void TearDown() override {
    channel_.reset();
    if (pid_ > 0 && !WaitHelper(std::chrono::seconds(5))) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  // True once the helper has exited (status in exit_status_).
  bool WaitHelper(std::chrono::milliseconds timeout) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      if (::waitpid(pid_, &exit_status_, WNOHANG) == pid_) {
        pid_ = -1;
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  Result<priv::Reply> Open(const std::string& path) {
    priv::Request r;
    r.op = priv::Op::kOpenDevice;
    r.path = path;
    return channel_->Call(r);
  }

  Result<CommandOutput> RunTool(std::vector<std::string> argv) {
    PrivilegedCommandRunner runner(*channel_, policy_);
    CommandSpec spec;
    spec.argv = std::move(argv);
    spec.timeout = std::chrono::seconds(10);
    return runner.Run(spec);
  }

  TempDir dir_;
  ToolPolicy policy_;
  pid_t pid_ = -1;
  int exit_status_ = 0;
  std::unique_ptr<PrivChannel> channel_;
};

TEST_F(PrivHelperTest, OpensALoopDeviceReadOnlyAndPassesTheDescriptor) {
  std::string why = LoopDevice::Unavailable();
  if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);
  auto loop = LoopDevice::Create(16ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  ASSERT_TRUE((*loop)->WriteBacking(0, std::string(4096, 'q')).ok());

  PrivilegedDeviceOpener opener(*channel_);
  auto dev = opener.OpenReadOnly((*loop)->path());
  ASSERT_TRUE(dev.ok()) << dev.status().ToString();
  EXPECT_TRUE((*dev)->is_device());
  EXPECT_EQ((*dev)->info().size_bytes, 16ULL << 20);
  EXPECT_EQ((*dev)->stats_key(), (*loop)->MajMin());
  int flags = ::fcntl((*dev)->fd(), F_GETFL);
  ASSERT_GE(flags, 0);
  EXPECT_EQ(flags & O_ACCMODE, O_RDONLY);
  EXPECT_TRUE(flags & O_DIRECT);
  EXPECT_TRUE(::fcntl((*dev)->fd(), F_GETFD) & FD_CLOEXEC);
  // The descriptor reads the device and cannot write it.
  auto buf = AlignedBuffer::Allocate(4096, (*dev)->buffer_alignment());
  ASSERT_TRUE(buf.ok());
  ASSERT_TRUE((*dev)->ReadAt(0, buf->span()).ok());
  EXPECT_EQ(static_cast<char>(buf->span()[0]), 'q');
  errno = 0;
  EXPECT_EQ(::pwrite((*dev)->fd(), buf->data(), 4096, 0), -1);
  EXPECT_EQ(errno, EBADF);

  // A symlink to the device (as /dev/disk/by-id/ names are) is followed.
  std::string link = dir_.Path("by-id-link");
  ASSERT_EQ(::symlink((*loop)->path().c_str(), link.c_str()), 0);
  auto via_link = opener.OpenReadOnly(link);
  ASSERT_TRUE(via_link.ok()) << via_link.status().ToString();
  EXPECT_EQ(::fcntl((*via_link)->fd(), F_GETFL) & O_ACCMODE, O_RDONLY);
}

TEST_F(PrivHelperTest, RefusesWhatIsNotADiskDevice) {
  std::string file = dir_.Write("regular", std::string(8192, 'x'));
  std::string link = dir_.Path("link-to-regular");
  ASSERT_EQ(::symlink(file.c_str(), link.c_str()), 0);
  for (const std::string& path :
       {std::string("/etc/passwd"), dir_.path().string(), link, file, std::string("/dev/null"),
        std::string("/dev/zero"), std::string("relative/path"), dir_.Path("missing")}) {
    auto reply = Open(path);
    ASSERT_TRUE(reply.ok()) << path << ": " << reply.status().ToString();
    EXPECT_EQ(reply->kind, priv::ReplyKind::kError) << path;
    EXPECT_EQ(reply->fd, -1) << path;
    EXPECT_FALSE(reply->error.ok()) << path;
  }
  // The opener still opens a regular file itself, with its own rights.
  PrivilegedDeviceOpener opener(*channel_);
  auto reg = opener.OpenReadOnly(file);
  if (reg.ok()) {
    EXPECT_FALSE((*reg)->is_device());
    EXPECT_EQ((*reg)->info().size_bytes, 8192u);
  } else {
    EXPECT_EQ(reg.status().code(), StatusCode::kUnsupported);  // tmpfs: no O_DIRECT
  }
}

TEST_F(PrivHelperTest, RunsOnlyAllowedToolsWithTheirOwnArgumentShapes) {
  auto out = RunTool({"/bin/echo", "-x", "-j", "-n", "standby", "/dev/sda"});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->stdout_text, "-x -j -n standby /dev/sda\n");
  EXPECT_EQ(out->exit_code, 0);
  // The exit code is data, as with PosixCommandRunner.
  auto zpool = RunTool({"/bin/false", "status", "-P"});
  ASSERT_TRUE(zpool.ok()) << zpool.status().ToString();
  EXPECT_EQ(zpool->exit_code, 1);

  const std::vector<std::vector<std::string>> refused = {
      {"/bin/sh", "-c", "id"},
      {"sh", "-x", "-j", "-n", "standby", "/dev/sda"},
      {"/bin/echo", "-s", "on", "/dev/sda"},
      {"/bin/echo", "--set", "standby,now", "/dev/sda"},
      {"/bin/echo", "-j", "-n", "standby", "-t", "offline", "/dev/sda"},
      {"/bin/echo", "-j", "-n", "standby", "-t", "short;reboot", "/dev/sda"},
      {"/bin/false", "scrub", "tank"},
  };
  for (const auto& argv : refused) {
    auto r = RunTool(argv);
    ASSERT_FALSE(r.ok()) << FormatArgv(argv);
    EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied) << r.status().ToString();
  }
  // A tool id sent as such, not through the runner's mapping.
  priv::Request req;
  req.op = priv::Op::kRunTool;
  req.tool_id = "/bin/sh";
  req.timeout_ms = 1000;
  req.max_output_bytes = 1024;
  req.args = {"-c", "touch " + dir_.Path("pwned")};
  auto reply = channel_->Call(req);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->kind, priv::ReplyKind::kError);
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("pwned")));
}

TEST_F(PrivHelperTest, LargeOutputComesBackWhole) {
  auto out = RunTool({policy_.tools().at("geom"), "disk", "list"});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->stdout_text, std::string(300000, 'g'));
  EXPECT_FALSE(out->stdout_truncated);
}

TEST_F(PrivHelperTest, MalformedRequestsGetAnErrorAndTheHelperGoesOn) {
  priv::Request open_passwd;
  open_passwd.path = "/etc/passwd";
  std::string good_open = priv::EncodeRequest(open_passwd);
  const std::vector<std::string> bad = {
      std::string("\x07garbage", 8),                      // unknown op
      std::string("\x01", 1),                             // no path
      std::string("\x01\xff\xff\xff\x7f", 5),             // a path length past the packet
      good_open + "trailing",                             // trailing bytes
      std::string("\x02\x03\x00\x00\x00zpo", 8),          // tool request cut short
      std::string(priv::kMaxRequestBytes + 100, '\x02'),  // oversized packet
      std::string("\x01\x05\x00\x00\x00/dev\0", 10),      // NUL in the path
  };
  for (const std::string& bytes : bad) {
    auto reply = channel_->CallRaw(bytes);
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    EXPECT_EQ(reply->kind, priv::ReplyKind::kError);
    EXPECT_EQ(reply->error.code(), StatusCode::kInvalidArgument) << reply->error.ToString();
  }
  auto out = RunTool({"/bin/echo", "-x", "-j", "-n", "standby", "/dev/sdz"});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->stdout_text, "-x -j -n standby /dev/sdz\n");
}

TEST_F(PrivHelperTest, ServesSeveralThreadsAtOnce) {
  std::vector<std::thread> threads;
  std::atomic<int> good{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        std::string dev = "/dev/sd" + std::to_string(t) + "x" + std::to_string(i);
        auto out = RunTool({"/bin/echo", "-x", "-j", "-n", "standby", dev});
        if (out.ok() && out->stdout_text == "-x -j -n standby " + dev + "\n") ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(good.load(), 40);
}

TEST_F(PrivHelperTest, ExitsWhenTheDaemonCloses) {
  ASSERT_FALSE(WaitHelper(std::chrono::milliseconds(100)));  // still serving
  channel_->Close();
  ASSERT_TRUE(WaitHelper(std::chrono::seconds(5)));
  EXPECT_TRUE(WIFEXITED(exit_status_));
  EXPECT_EQ(WEXITSTATUS(exit_status_), 0);
  auto after = RunTool({"/bin/echo", "-x", "-j", "-n", "standby", "/dev/sda"});
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.status().code(), StatusCode::kUnavailable);
}

// The daemon's side never uses a writable descriptor, whoever passed it.
TEST(BlockDeviceAdoptTest, RefusesAWritableDescriptorAndNonDisks) {
  TempDir dir;
  std::string file = dir.Write("data", std::string(8192, 'd'));
  int rw = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(rw, 0);
  auto dev = BlockDevice::Adopt(rw, file);  // closes rw
  ASSERT_FALSE(dev.ok());
  EXPECT_EQ(dev.status().code(), StatusCode::kPermissionDenied);
  int wo = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(wo, 0);
  EXPECT_EQ(BlockDevice::Adopt(wo, file).status().code(), StatusCode::kPermissionDenied);
  int pipe_fds[2];  // a read-only descriptor that is no disk or file
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  ::close(pipe_fds[1]);
  EXPECT_EQ(BlockDevice::Adopt(pipe_fds[0], "pipe").status().code(), StatusCode::kInvalidArgument);
  int ro = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(ro, 0);
  auto ok = BlockDevice::Adopt(ro, file);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)->info().size_bytes, 8192u);
  EXPECT_FALSE((*ok)->is_device());
}

}  // namespace
}  // namespace dp
