#include "support/foreign_load.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <thread>

namespace dp::testing {
namespace {

// Fields 1 and 5 of /sys/dev/block/MAJ:MIN/stat: read and write requests.
bool ReadIos(const std::string& key, std::uint64_t& reads, std::uint64_t& writes) {
  std::ifstream in("/sys/dev/block/" + key + "/stat");
  std::uint64_t f[5] = {};
  for (auto& v : f)
    if (!(in >> v)) return false;
  reads = f[0];
  writes = f[4];
  return true;
}

std::vector<std::string> ShapeArgs(LoadShape s) {
  switch (s) {
    case LoadShape::kSeq1M:
      return {"--rw=read", "--bs=1M", "--iodepth=1"};
    case LoadShape::kRandom4KQd32:
      return {"--rw=randread", "--bs=4k", "--iodepth=32"};
    case LoadShape::kRandom64KQd4:
      return {"--rw=randread", "--bs=64k", "--iodepth=4"};
    case LoadShape::kWrites:
      return {"--rw=randwrite", "--bs=4k", "--iodepth=1"};
  }
  return {};
}

}  // namespace

const char* LoadShapeName(LoadShape s) {
  switch (s) {
    case LoadShape::kSeq1M:
      return "seq 1M QD1";
    case LoadShape::kRandom4KQd32:
      return "random 4K QD32";
    case LoadShape::kRandom64KQd4:
      return "random 64K QD4";
    case LoadShape::kWrites:
      return "random 4K writes QD1";
  }
  return "?";
}

std::vector<LoadShape> AllLoadShapes() {
  return {LoadShape::kSeq1M, LoadShape::kRandom4KQd32, LoadShape::kRandom64KQd4,
          LoadShape::kWrites};
}

std::string ForeignLoad::Unavailable() {
  for (const char* dir : {"/usr/bin/fio", "/usr/local/bin/fio"})
    if (::access(dir, X_OK) == 0) return "";
  return "fio not installed (scripts/setup.sh installs it)";
}

Result<std::unique_ptr<ForeignLoad>> ForeignLoad::Start(const std::string& device, LoadShape shape,
                                                        std::uint64_t rate_iops,
                                                        std::chrono::seconds limit) {
  std::vector<std::string> args = {"fio",
                                   "--name=foreign",
                                   "--filename=" + device,
                                   "--ioengine=libaio",
                                   "--direct=1",
                                   "--time_based",
                                   "--runtime=" + std::to_string(limit.count()),
                                   "--output=/dev/null"};
  for (auto& a : ShapeArgs(shape)) args.push_back(a);
  if (rate_iops > 0) args.push_back("--rate_iops=" + std::to_string(rate_iops));
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0) return ErrnoStatus(errno, "fork");
  if (pid == 0) {
    int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execvp("fio", argv.data());
    ::_exit(127);
  }
  std::unique_ptr<ForeignLoad> load(new ForeignLoad());
  load->pid_ = pid;
  load->shape_ = shape;
  return load;
}

bool ForeignLoad::WaitForCounters(const std::string& stats_key,
                                  std::chrono::milliseconds timeout) {
  std::uint64_t r0 = 0, w0 = 0, r = 0, w = 0;
  if (!ReadIos(stats_key, r0, w0)) return false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (pid_ < 0) return false;
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {  // fio ended (bad arguments?)
      pid_ = -1;
      return false;
    }
    if (!ReadIos(stats_key, r, w)) return false;
    // A few requests, so fio's set-up reads (it checks the device) do not count.
    if (shape_ == LoadShape::kWrites ? w >= w0 + 4 : r >= r0 + 16) return true;
  }
  return false;
}

void ForeignLoad::Stop() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    pid_t got = ::waitpid(pid_, nullptr, WNOHANG);
    if (got == pid_ || (got < 0 && errno == ECHILD)) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

ForeignLoad::~ForeignLoad() { Stop(); }

}  // namespace dp::testing
