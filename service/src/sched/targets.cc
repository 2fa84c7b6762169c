#include "sched/targets.h"

#include <fnmatch.h>

#include <algorithm>

namespace dp {
namespace {

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

const Drive* FindById(const std::vector<Drive>& drives, const std::string& id) {
  for (const auto& d : drives)
    if (d.present && d.id == id) return &d;
  return nullptr;
}

bool PoolSelected(const DriveSelection& select, const Pool& pool,
                  const std::vector<std::string>& member_ids, const std::vector<Drive>& drives,
                  const std::vector<Pool>& pools) {
  if (select.empty() || Contains(select.pools, pool.name)) return true;
  for (const auto& id : member_ids) {
    const Drive* d = FindById(drives, id);
    if (d && SelectsDrive(select, *d, pools)) return true;
  }
  return false;
}

void AddController(Job& job, const std::string& controller) {
  if (!Contains(job.controllers, controller)) job.controllers.push_back(controller);
}

}  // namespace

bool SelectsDrive(const DriveSelection& select, const Drive& drive,
                  const std::vector<Pool>& pools) {
  if (select.empty()) return true;
  for (const auto& w : select.drives)
    if (IsDriveRef(drive, w)) return true;
  for (const auto& glob : select.models) {
    if (fnmatch(glob.c_str(), drive.model.c_str(), 0) == 0) return true;
  }
  if (!select.pools.empty()) {
    Placement p = PlacementOf(drive.id, pools);
    if (!p.pool.empty() && Contains(select.pools, p.pool)) return true;
  }
  return false;
}

Placement PlacementOf(const std::string& drive_id, const std::vector<Pool>& pools) {
  if (drive_id.empty()) return {};
  for (const auto& pool : pools)
    for (const auto& vdev : pool.vdevs)
      for (const auto& m : vdev.members)
        if (m.drive_id == drive_id) return {pool.name, vdev.name};
  return {};
}

Job MakeDriveJob(const std::string& test, const Drive& drive, const std::vector<Pool>& pools) {
  Job j;
  j.test = test;
  j.drive_id = drive.id;
  j.drive_name = drive.name.empty() ? DeviceBasename(drive.dev_path) : drive.name;
  j.dev_path = drive.dev_path;
  Placement p = PlacementOf(drive.id, pools);
  j.pool = p.pool;
  j.vdev = p.vdev;
  j.controllers = {drive.controller};
  return j;
}

std::vector<ScheduleTarget> ExpandSchedule(const ScheduleConfig& s,
                                           const std::vector<Drive>& drives,
                                           const std::vector<Pool>& pools) {
  std::vector<ScheduleTarget> out;
  if (!s.enabled) return out;
  std::vector<std::string> drive_tests, pool_tests, vdev_tests;
  for (const auto& t : s.tests) {
    if (t == "pool-write")
      pool_tests.push_back(t);
    else if (t == "parallel")
      vdev_tests.push_back(t);
    else
      drive_tests.push_back(t);
  }
  const std::string trigger = "schedule:" + s.name;
  if (!drive_tests.empty()) {
    for (const auto& d : drives) {
      if (!d.present || !SelectsDrive(s.select, d, pools)) continue;
      ScheduleTarget target{d.id, d.name.empty() ? DeviceBasename(d.dev_path) : d.name, {}};
      for (const auto& t : drive_tests) {
        Job j = MakeDriveJob(t, d, pools);
        j.schedule = s.name;
        j.trigger = trigger;
        target.jobs.push_back(std::move(j));
      }
      out.push_back(std::move(target));
    }
  }
  // A pool-level target: one job per test over the given present members.
  auto add_group = [&](const Pool& pool, const std::string& vdev,
                       const std::vector<std::string>& tests,
                       const std::vector<std::string>& members) {
    const std::string label = vdev.empty() ? pool.name : pool.name + "/" + vdev;
    ScheduleTarget target{(vdev.empty() ? "pool:" : "vdev:") + label, label, {}};
    for (const auto& t : tests) {
      Job j;
      j.test = t;
      j.schedule = s.name;
      j.trigger = trigger;
      j.pool = pool.name;
      j.vdev = vdev;
      j.member_ids = members;
      for (const auto& id : members) AddController(j, FindById(drives, id)->controller);
      target.jobs.push_back(std::move(j));
    }
    out.push_back(std::move(target));
  };
  auto present_members = [&](const Vdev& v, std::vector<std::string>& members) {
    for (const auto& m : v.members)
      if (FindById(drives, m.drive_id) && !Contains(members, m.drive_id))
        members.push_back(m.drive_id);
  };
  for (const auto& pool : pools) {
    // pool-write writes into the pool's own scratch directory: a pool that
    // has none is not written to.
    const bool writable = !s.write_pools || Contains(*s.write_pools, pool.name);
    if (!pool_tests.empty() && writable) {
      std::vector<std::string> members;
      for (const auto& v : pool.vdevs) present_members(v, members);
      if (PoolSelected(s.select, pool, members, drives, pools))
        add_group(pool, "", pool_tests, members);
    }
    if (vdev_tests.empty()) continue;
    for (const auto& v : pool.vdevs) {
      if (v.role != "data" && !v.role.empty()) continue;
      std::vector<std::string> members;
      present_members(v, members);
      if (members.size() >= 2 && PoolSelected(s.select, pool, members, drives, pools))
        add_group(pool, v.name, vdev_tests, members);
    }
  }
  return out;
}

const Drive* FindDrive(const std::vector<Drive>& drives, const std::string& which) {
  for (const auto& d : drives)
    if (d.present && d.id == which) return &d;
  for (const auto& d : drives)
    if (d.present && IsDriveRef(d, which)) return &d;
  return nullptr;
}

}  // namespace dp
