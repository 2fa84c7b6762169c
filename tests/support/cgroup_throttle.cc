#include "support/cgroup_throttle.h"

#include <dirent.h>
#include <signal.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
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

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Whitespace-separated words of a file ("" words if it cannot be read).
std::vector<std::string> Words(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool Contains(const std::vector<std::string>& words, const std::string& w) {
  for (const auto& x : words)
    if (x == w) return true;
  return false;
}

std::string Join(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// The mount point of the first cgroup2 file system in a mounts table.
std::string Cgroup2Mount(const std::string& mounts_file) {
  std::ifstream in(mounts_file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string source, target, type;
    if (ls >> source >> target >> type && type == "cgroup2") return target;
  }
  return "";
}

std::vector<pid_t> ProcsIn(const std::string& dir) {
  std::vector<pid_t> v;
  std::ifstream in(dir + "/cgroup.procs");
  pid_t p;
  while (in >> p) v.push_back(p);
  return v;
}

std::string Value(std::uint64_t v) { return v == 0 ? "max" : std::to_string(v); }

std::atomic<int> g_counter{0};

}  // namespace

const char* ThrottleKindName(ThrottleKind kind) {
  return kind == ThrottleKind::kV1Blkio ? "cgroup v1 blkio" : "cgroup v2 io.max";
}

std::string FormatIoMax(std::uint32_t major, std::uint32_t minor, const DeviceLimits& l) {
  return std::to_string(major) + ":" + std::to_string(minor) + " rbps=" + Value(l.read_bps) +
         " wbps=" + Value(l.write_bps) + " riops=" + Value(l.read_iops) +
         " wiops=" + Value(l.write_iops);
}

Result<CgroupThrottle::Choice> CgroupThrottle::Choose(const CgroupFs& fs) {
  if (Exists(fs.blkio_v1 + "/blkio.throttle.read_bps_device"))
    return Choice{ThrottleKind::kV1Blkio, fs.blkio_v1};
  std::string why = "no cgroup v1 blkio controller at " + fs.blkio_v1;
  std::string v2 = fs.unified_v2.empty() ? Cgroup2Mount(fs.mounts_file) : fs.unified_v2;
  if (v2.empty()) return FailedPrecondition(why + ", and no cgroup2 file system mounted");
  auto controllers = Words(v2 + "/cgroup.controllers");
  if (!Contains(controllers, "io"))
    return FailedPrecondition(why + ", and the cgroup2 hierarchy at " + v2 +
                              " has no io controller (cgroup.controllers: '" +
                              Join(controllers) + "')");
  return Choice{ThrottleKind::kV2IoMax, v2};
}

std::string CgroupThrottle::Unavailable(const CgroupFs& fs) {
  if (::geteuid() != 0) return "cgroup throttling needs root";
  auto choice = Choose(fs);
  return choice.ok() ? "" : choice.status().message();
}

Result<std::unique_ptr<CgroupThrottle>> CgroupThrottle::Create(const CgroupFs& fs) {
  DP_ASSIGN_OR_RETURN(Choice choice, Choose(fs));
  // Leftovers of crashed runs: empty ones can simply be removed. A group
  // whose test process (the PID in its name) still runs is not a leftover:
  // another suite running beside this one empties its group between cases.
  if (DIR* d = ::opendir(choice.root.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      const std::string prefix = "diskpulse-test-";
      if (n.rfind(prefix, 0) == 0) {
        const long owner = std::strtol(n.c_str() + prefix.size(), nullptr, 10);
        if (owner > 0 && (::kill(static_cast<pid_t>(owner), 0) == 0 || errno == EPERM)) continue;
        std::string p = choice.root + "/" + n;
        if (ProcsIn(p).empty()) ::rmdir(p.c_str());
      }
    }
    ::closedir(d);
  }
  // On v2 a child has io.max only when its parent hands the io controller down.
  if (choice.kind == ThrottleKind::kV2IoMax &&
      !Contains(Words(choice.root + "/cgroup.subtree_control"), "io"))
    DP_RETURN_IF_ERROR(WriteFile(choice.root + "/cgroup.subtree_control", "+io"));
  std::unique_ptr<CgroupThrottle> cg(new CgroupThrottle());
  cg->fs_ = fs;
  cg->kind_ = choice.kind;
  cg->root_ = choice.root;
  cg->path_ = choice.root + "/diskpulse-test-" + std::to_string(::getpid()) + "-" +
              std::to_string(g_counter++);
  if (::mkdir(cg->path_.c_str(), 0755) != 0) {
    int err = errno;
    cg->path_.clear();
    return ErrnoStatus(err, "mkdir cgroup");
  }
  // Which interface a throttled test really used shows in its log and XML.
  std::cerr << "kernel throttle: " << cg->Describe() << "\n";
  ::testing::Test::RecordProperty("kernel_throttle", cg->Describe());
  return cg;
}

std::string CgroupThrottle::Describe() const {
  return std::string(ThrottleKindName(kind_)) + " (" + path_ + ")";
}

CgroupThrottle::~CgroupThrottle() {
  if (path_.empty()) return;
  // Everyone inside goes back where they came from (or to the root).
  for (pid_t p : ProcsIn(path_)) {
    auto it = origin_.find(p);
    std::string to = it != origin_.end() ? it->second : root_;
    if (!WriteFile(to + "/cgroup.procs", std::to_string(p)).ok())
      (void)WriteFile(root_ + "/cgroup.procs", std::to_string(p));
  }
  for (const auto& [dev, limits] : limits_) {
    if (kind_ == ThrottleKind::kV2IoMax) {
      (void)WriteFile(path_ + "/io.max", dev + " rbps=max wbps=max riops=max wiops=max");
    } else {
      for (const char* f : {"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
                            "blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device"})
        if (Exists(path_ + "/" + f)) (void)WriteFile(path_ + "/" + f, dev + " 0");
    }
  }
  for (int attempt = 0; attempt < 50 && ::rmdir(path_.c_str()) != 0 && errno == EBUSY; ++attempt)
    ::usleep(20000);
}

Status CgroupThrottle::SetLimit(Field field, std::uint32_t major, std::uint32_t minor,
                                std::uint64_t value) {
  std::string dev = std::to_string(major) + ":" + std::to_string(minor);
  DeviceLimits next = limits_[dev];
  const char* v1_file = nullptr;
  switch (field) {
    case Field::kReadBps: next.read_bps = value; v1_file = "blkio.throttle.read_bps_device"; break;
    case Field::kWriteBps: next.write_bps = value; v1_file = "blkio.throttle.write_bps_device"; break;
    case Field::kReadIops: next.read_iops = value; v1_file = "blkio.throttle.read_iops_device"; break;
    case Field::kWriteIops: next.write_iops = value; v1_file = "blkio.throttle.write_iops_device"; break;
  }
  // v2 takes the whole line each time (the kernel keeps keys left out, a plain
  // file would not), so one write states every limit of the device.
  DP_RETURN_IF_ERROR(kind_ == ThrottleKind::kV2IoMax
                         ? WriteFile(path_ + "/io.max", FormatIoMax(major, minor, next))
                         : WriteFile(path_ + "/" + v1_file, dev + " " + std::to_string(value)));
  limits_[dev] = next;
  return Status::Ok();
}

Status CgroupThrottle::SetReadBps(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit(Field::kReadBps, ma, mi, v);
}
Status CgroupThrottle::SetReadIops(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit(Field::kReadIops, ma, mi, v);
}
Status CgroupThrottle::SetWriteBps(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit(Field::kWriteBps, ma, mi, v);
}
Status CgroupThrottle::SetWriteIops(std::uint32_t ma, std::uint32_t mi, std::uint64_t v) {
  return SetLimit(Field::kWriteIops, ma, mi, v);
}

// /proc/PID/cgroup has one "ID:CONTROLLERS:PATH" line per hierarchy; v1
// blkio is the line whose controllers include blkio, v2 the line "0::PATH".
std::string CgroupThrottle::CgroupOf(pid_t pid) const {
  std::ifstream in(fs_.proc_root + "/" + std::to_string(pid) + "/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    auto a = line.find(':');
    auto b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1);
    bool match = false;
    if (kind_ == ThrottleKind::kV2IoMax) {
      match = id == "0" && controllers.empty();
    } else {
      std::stringstream cs(controllers);
      for (std::string c; std::getline(cs, c, ',');) match = match || c == "blkio";
    }
    if (match) {
      std::string rel = line.substr(b + 1);
      return root_ + (rel == "/" ? "" : rel);
    }
  }
  return root_;
}

Status CgroupThrottle::AddProcess(pid_t pid) {
  std::string from = CgroupOf(pid);
  DP_RETURN_IF_ERROR(WriteFile(path_ + "/cgroup.procs", std::to_string(pid)));
  origin_.emplace(pid, from);
  return Status::Ok();
}

Status CgroupThrottle::RemoveProcess(pid_t pid) {
  auto it = origin_.find(pid);
  std::string to = it != origin_.end() ? it->second : root_;
  DP_RETURN_IF_ERROR(WriteFile(to + "/cgroup.procs", std::to_string(pid)));
  if (it != origin_.end()) origin_.erase(it);
  return Status::Ok();
}

}  // namespace dp::testing
