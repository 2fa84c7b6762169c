#include "support/loop_device.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>

#include "base/command_runner.h"

namespace dp::testing {
namespace {

Result<CommandOutput> Losetup(const std::vector<std::string>& args) {
  PosixCommandRunner runner;
  CommandSpec spec;
  spec.argv = {"losetup"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::seconds(30);
  DP_ASSIGN_OR_RETURN(CommandOutput out, runner.Run(spec));
  if (out.exit_code != 0) return IoError(FormatArgv(spec.argv) + ": " + out.stderr_text);
  return out;
}

bool DirectIoWorks(const std::string& dir) {
  std::string tmpl = dir + "/.dp-odirect-XXXXXX";
  int fd = mkstemp(tmpl.data());
  if (fd < 0) return false;
  ::close(fd);
  int dfd = ::open(tmpl.c_str(), O_RDONLY | O_DIRECT);
  ::unlink(tmpl.c_str());
  if (dfd < 0) return false;
  ::close(dfd);
  return true;
}

}  // namespace

std::string LoopDevice::Unavailable() {
  if (::geteuid() != 0) return "loop devices need root";
  if (::access("/dev/loop-control", R_OK | W_OK) != 0) return "no /dev/loop-control";
  PosixCommandRunner runner;
  CommandSpec spec;
  spec.argv = {"losetup", "--version"};
  auto out = runner.Run(spec);
  if (!out.ok() || out->exit_code != 0) return "losetup not found (util-linux)";
  if (DirectIoDir().empty()) return "no directory supporting O_DIRECT for backing files";
  return "";
}

std::string LoopDevice::DirectIoDir() {
  for (const char* env : {"DP_TEST_DIRECT_DIR", "TMPDIR"}) {
    const char* v = std::getenv(env);
    if (v && *v && DirectIoWorks(v)) return v;
  }
  for (const char* d : {"/var/tmp", "/tmp"})
    if (DirectIoWorks(d)) return d;
  return "";
}

Result<std::unique_ptr<LoopDevice>> LoopDevice::Create(std::uint64_t size_bytes, bool direct_io,
                                                       const std::string& dir_in) {
  return Attach(size_bytes, direct_io, dir_in, "");
}

Result<std::unique_ptr<LoopDevice>> LoopDevice::CreateApart(std::uint64_t size_bytes) {
  // Started from the process id, so two such tests at once try different
  // numbers first; losetup makes the node when it is missing.
  const int first = 200 + static_cast<int>(::getpid() % 50);
  for (int i = 0; i < 50; ++i) {
    const std::string name = "loop" + std::to_string(first + i);
    if (::access(("/sys/block/" + name + "/loop/backing_file").c_str(), F_OK) == 0) continue;
    auto loop = Attach(size_bytes, /*direct_io=*/false, "", "/dev/" + name);
    if (loop.ok()) return loop;
  }
  return ::dp::Unavailable("no free loop number from " + std::to_string(first));
}

Result<std::unique_ptr<LoopDevice>> LoopDevice::Attach(std::uint64_t size_bytes, bool direct_io,
                                                       const std::string& dir_in, const std::string& at) {
  std::string dir = dir_in.empty() ? DirectIoDir() : dir_in;
  if (dir.empty()) return FailedPrecondition("no directory supporting O_DIRECT");
  std::unique_ptr<LoopDevice> loop(new LoopDevice());
  std::string tmpl = dir + "/diskpulse-loop-XXXXXX";
  int fd = mkstemp(tmpl.data());
  if (fd < 0) return ErrnoStatus(errno, tmpl);
  loop->file_ = tmpl;  // from here on the destructor removes it
  int rc = ::ftruncate(fd, static_cast<off_t>(size_bytes));
  int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoStatus(err, tmpl);

  std::vector<std::string> args;
  if (direct_io) args.push_back("--direct-io=on");
  if (at.empty()) {
    args.insert(args.end(), {"--find", "--show", loop->file_});
  } else {
    args.insert(args.end(), {"--show", at, loop->file_});
  }
  DP_ASSIGN_OR_RETURN(CommandOutput out, Losetup(args));
  std::string dev = out.stdout_text;
  while (!dev.empty() && (dev.back() == '\n' || dev.back() == ' ')) dev.pop_back();
  if (dev.rfind("/dev/loop", 0) != 0) return Internal("losetup printed '" + dev + "'");
  loop->path_ = dev;
  loop->attached_ = true;
  struct stat st {};
  if (::stat(dev.c_str(), &st) != 0) return ErrnoStatus(errno, dev);
  loop->major_ = ::major(st.st_rdev);
  loop->minor_ = ::minor(st.st_rdev);
  return loop;
}

LoopDevice::~LoopDevice() {
  if (attached_) (void)Detach();
  if (!file_.empty()) ::unlink(file_.c_str());
}

std::string LoopDevice::name() const { return path_.substr(path_.rfind('/') + 1); }

std::string LoopDevice::MajMin() const {
  return std::to_string(major_) + ":" + std::to_string(minor_);
}

Result<BlockStat> LoopDevice::Stat() const {
  std::ifstream in("/sys/block/" + name() + "/stat");
  BlockStat s;
  if (!(in >> s.read_ios >> s.read_merges >> s.read_sectors >> s.read_ticks >> s.write_ios >>
        s.write_merges >> s.write_sectors >> s.write_ticks >> s.in_flight >> s.io_ticks >>
        s.time_in_queue))
    return NotFound("/sys/block/" + name() + "/stat unreadable");
  return s;
}

Status LoopDevice::WriteBacking(std::uint64_t offset, const std::string& data) const {
  int fd = ::open(file_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, file_);
  ssize_t n = ::pwrite(fd, data.data(), data.size(), static_cast<off_t>(offset));
  int err = errno;
  if (n == static_cast<ssize_t>(data.size())) ::fsync(fd);
  ::close(fd);
  if (n != static_cast<ssize_t>(data.size())) return ErrnoStatus(err, file_ + ": write");
  return Status::Ok();
}

Status LoopDevice::Shrink(std::uint64_t new_size) const {
  if (::truncate(file_.c_str(), static_cast<off_t>(new_size)) != 0)
    return ErrnoStatus(errno, file_ + ": truncate");
  auto out = Losetup({"--set-capacity", path_});
  return out.ok() ? Status::Ok() : out.status();
}

Status LoopDevice::Detach() {
  if (!attached_) return Status::Ok();
  auto out = Losetup({"--detach", path_});
  if (!out.ok()) return out.status();
  attached_ = false;
  return Status::Ok();
}

}  // namespace dp::testing
