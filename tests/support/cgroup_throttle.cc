#include "support/cgroup_throttle.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <vector>

namespace dp::testing {
namespace {

Status WriteFile(const std::string& file, const std::string& text) {
  std::ofstream out(file);
  if (!out) return ErrnoStatus(errno, file);
  out << text << std::flush;
  if (!out) return IoError(file + ": write of '" + text + "' refused");
  return Status::Ok();
}

// The blkio cgroup folder pid is in ("/sys/fs/cgroup/blkio/x/y").
std::string BlkioCgroupOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    auto a = line.find(':');
    auto b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::stringstream cs(line.substr(a + 1, b - a - 1));
    std::string c;
    while (std::getline(cs, c, ','))
      if (c == "blkio") {
        std::string rel = line.substr(b + 1);
        return std::string(CgroupThrottle::kBlkioRoot) + (rel == "/" ? "" : rel);
      }
  }
  return CgroupThrottle::kBlkioRoot;
}

std::vector<pid_t> ProcsIn(const std::string& dir) {
  std::vector<pid_t> v;
  std::ifstream in(dir + "/cgroup.procs");
  pid_t p;
  while (in >> p) v.push_back(p);
  return v;
}

std::atomic<int> g_counter{0};

}  // namespace

std::string CgroupThrottle::Unavailable() {
  if (::geteuid() != 0) return "cgroup throttling needs root";
  struct stat st {};
  std::string f = std::string(kBlkioRoot) + "/blkio.throttle.read_bps_device";
  if (::stat(f.c_str(), &st) != 0)
    return "no cgroup v1 blkio controller at " + std::string(kBlkioRoot);
  return "";
}

Result<std::unique_ptr<CgroupThrottle>> CgroupThrottle::Create() {
  // Leftovers of crashed runs: empty ones can simply be removed.
  if (DIR* d = ::opendir(kBlkioRoot)) {
    while (dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n.rfind("diskpulse-test-", 0) == 0) {
        std::string p = std::string(kBlkioRoot) + "/" + n;
        if (ProcsIn(p).empty()) ::rmdir(p.c_str());
      }
    }
    ::closedir(d);
  }
  std::unique_ptr<CgroupThrottle> cg(new CgroupThrottle());
  cg->path_ = std::string(kBlkioRoot) + "/diskpulse-test-" + std::to_string(::getpid()) + "-" +
              std::to_string(g_counter++);
  if (::mkdir(cg->path_.c_str(), 0755) != 0) {
    int err = errno;
    cg->path_.clear();
    return ErrnoStatus(err, "mkdir cgroup");
  }
  return cg;
}

CgroupThrottle::~CgroupThrottle() {
  if (path_.empty()) return;
  // Everyone inside goes back where they came from (or to the root).
  for (pid_t p : ProcsIn(path_)) {
    auto it = origin_.find(p);
    std::string to = it != origin_.end() ? it->second : kBlkioRoot;
    if (!WriteFile(to + "/cgroup.procs", std::to_string(p)).ok())
      (void)WriteFile(std::string(kBlkioRoot) + "/cgroup.procs", std::to_string(p));
  }
  for (const auto& [file, dev] : limits_) (void)WriteFile(path_ + "/" + file, dev + " 0");
  for (int attempt = 0; attempt < 50 && ::rmdir(path_.c_str()) != 0 && errno == EBUSY; ++attempt)
    ::usleep(20000);
}

Status CgroupThrottle::SetLimit(const char* file, std::uint32_t major, std::uint32_t minor,
                                std::uint64_t value) {
  std::string dev = std::to_string(major) + ":" + std::to_string(minor);
  DP_RETURN_IF_ERROR(WriteFile(path_ + "/" + file, dev + " " + std::to_string(value)));
  limits_[file] = dev;
  return Status::Ok();
}

Status CgroupThrottle::SetReadBps(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit("blkio.throttle.read_bps_device", ma, mi, v);
}
Status CgroupThrottle::SetReadIops(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit("blkio.throttle.read_iops_device", ma, mi, v);
}
Status CgroupThrottle::SetWriteBps(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit("blkio.throttle.write_bps_device", ma, mi, v);
}
Status CgroupThrottle::SetWriteIops(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit("blkio.throttle.write_iops_device", ma, mi, v);
}

Status CgroupThrottle::AddProcess(pid_t pid) {
  std::string from = BlkioCgroupOf(pid);
  DP_RETURN_IF_ERROR(WriteFile(path_ + "/cgroup.procs", std::to_string(pid)));
  origin_.emplace(pid, from);
  return Status::Ok();
}

Status CgroupThrottle::RemoveProcess(pid_t pid) {
  auto it = origin_.find(pid);
  std::string to = it != origin_.end() ? it->second : kBlkioRoot;
  DP_RETURN_IF_ERROR(WriteFile(to + "/cgroup.procs", std::to_string(pid)));
  if (it != origin_.end()) origin_.erase(it);
  return Status::Ok();
}

}  // namespace dp::testing
