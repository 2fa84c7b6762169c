#include "inventory/file_tree_snapshot.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace dp {
namespace fs = std::filesystem;
namespace {

// The sysfs attributes sysfs_discovery reads, relative to a block device.
const char* const kBlockFiles[] = {"size", "dev", "removable", "wwid", "queue/logical_block_size",
                                   "queue/physical_block_size", "queue/rotational"};
const char* const kDeviceFiles[] = {"model", "vendor", "rev", "serial", "firmware_rev", "wwid",
                                    "vpd_pg80"};

void CopyIfThere(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::is_regular_file(from, ec)) return;
  std::ifstream in(from, std::ios::binary);
  if (!in) return;
  fs::create_directories(to.parent_path(), ec);
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  out << in.rdbuf();
}

void CopySymlinkDir(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::is_directory(from, ec)) return;
  fs::create_directories(to, ec);
  for (const auto& e : fs::directory_iterator(from, ec)) {
    if (!fs::is_symlink(e.symlink_status())) continue;
    std::string target = fs::read_symlink(e.path(), ec).filename().string();
    if (ec || target.empty()) continue;
    fs::create_symlink(fs::path("../..") / target, to / e.path().filename(), ec);
  }
}

}  // namespace

Status SnapshotFileTrees(const InventoryConfig& live, Platform platform, const std::string& dir) {
  std::error_code ec;
  fs::path root(dir);
  fs::create_directories(root, ec);
  if (ec) return IoError(dir + ": " + ec.message());
  {
    std::ofstream p(root / "platform");
    p << PlatformName(platform) << "\n";
    if (!p) return IoError((root / "platform").string() + ": write failed");
  }
  if (platform != Platform::kLinux) return Status::Ok();

  fs::path sys_block = fs::path(live.sysfs_root) / "block";
  fs::path sys_root = fs::weakly_canonical(live.sysfs_root, ec);
  for (const auto& e : fs::directory_iterator(sys_block, ec)) {
    std::string name = e.path().filename().string();
    fs::path real = fs::weakly_canonical(e.path(), ec);
    // Keep the device path (it tells the bus and the controller): the copy
    // lives at sys/<path below /sys>, and sys/block/NAME links to it.
    fs::path rel = real.lexically_relative(sys_root);
    if (rel.empty() || rel.native().rfind("..", 0) == 0) rel = fs::path("devices/virtual/block") / name;
    fs::path copy = root / "sys" / rel;
    fs::create_directories(copy, ec);
    for (const char* f : kBlockFiles) CopyIfThere(e.path() / f, copy / f);
    for (const char* f : kDeviceFiles) CopyIfThere(e.path() / "device" / f, copy / "device" / f);
    for (const auto& sub : fs::directory_iterator(e.path(), ec)) {
      if (sub.is_directory() && fs::exists(sub.path() / "partition")) {
        CopyIfThere(sub.path() / "partition", copy / sub.path().filename() / "partition");
      }
    }
    if (fs::is_directory(e.path() / "slaves", ec)) {
      fs::create_directories(copy / "slaves", ec);
      for (const auto& s : fs::directory_iterator(e.path() / "slaves", ec)) {
        fs::create_directories(copy / "slaves" / s.path().filename(), ec);
      }
    }
    fs::create_directories(root / "sys" / "block", ec);
    fs::create_symlink(fs::relative(copy, root / "sys" / "block"), root / "sys" / "block" / name, ec);
    std::ifstream devnum_in(e.path() / "dev");
    std::string devnum;
    if (devnum_in >> devnum) {
      CopyIfThere(fs::path(live.udev_data_dir) / ("b" + devnum), root / "udev" / ("b" + devnum));
    }
  }
  fs::path disk = fs::path(live.dev_root) / "disk";
  for (const auto& sub : fs::directory_iterator(disk, ec)) {
    if (sub.is_directory()) CopySymlinkDir(sub.path(), root / "dev" / "disk" / sub.path().filename());
  }
  // /dev/mapper links point at ../dm-N: one level up, not two.
  fs::path mapper = fs::path(live.dev_root) / "mapper";
  if (fs::is_directory(mapper, ec)) {
    fs::create_directories(root / "dev" / "mapper", ec);
    for (const auto& e : fs::directory_iterator(mapper, ec)) {
      if (!fs::is_symlink(e.symlink_status())) continue;
      std::string target = fs::read_symlink(e.path(), ec).filename().string();
      if (!ec && !target.empty()) fs::create_symlink(fs::path("..") / target, root / "dev" / "mapper" / e.path().filename(), ec);
    }
  }
  CopyIfThere(fs::path(live.proc_root) / "mdstat", root / "proc" / "mdstat");
  return Status::Ok();
}

}  // namespace dp
