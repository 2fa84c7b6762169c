#include "sched/exclusion.h"

#include <algorithm>

namespace dp {
namespace {

bool SharesDrive(const Job& a, const Job& b) {
  for (const auto& x : a.Drives())
    for (const auto& y : b.Drives())
      if (x == y) return true;
  return false;
}

}  // namespace

bool Conflicts(const Job& a, const Job& b, std::string* why) {
  auto say = [why](const char* w) {
    if (why) *why = w;
    return true;
  };
  if (SharesDrive(a, b)) return say("drive");
  if (!IsHeavyTest(a.test) || !IsHeavyTest(b.test)) return false;
  if (a.pool.empty() || a.pool != b.pool) return false;
  if (KindOfTest(a.test) == TestKind::kPoolWrite || KindOfTest(b.test) == TestKind::kPoolWrite)
    return say("pool");
  if (!a.vdev.empty() && a.vdev == b.vdev) return say("vdev");
  return false;
}

bool CanStart(const Job& job, const std::vector<const Job*>& running, const SchedulerConfig& config,
              std::string* why) {
  for (const Job* r : running)
    if (Conflicts(job, *r, why)) return false;
  if (!IsHeavyTest(job.test)) return true;
  int heavy = 0;
  for (const Job* r : running) heavy += IsHeavyTest(r->test) ? 1 : 0;
  if (heavy >= config.max_concurrent) {
    if (why) *why = "max_concurrent";
    return false;
  }
  for (const auto& c : job.controllers) {
    if (c.empty()) continue;
    int on_c = 0;
    for (const Job* r : running) {
      if (IsHeavyTest(r->test) &&
          std::find(r->controllers.begin(), r->controllers.end(), c) != r->controllers.end())
        ++on_c;
    }
    if (on_c >= config.max_per_controller) {
      if (why) *why = "controller";
      return false;
    }
  }
  return true;
}

std::vector<std::size_t> PickStartable(const std::vector<Job>& queue,
                                       const std::vector<Job>& running,
                                       const SchedulerConfig& config) {
  std::vector<const Job*> busy;
  for (const auto& r : running) busy.push_back(&r);
  std::vector<std::size_t> picked;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    if (CanStart(queue[i], busy, config)) {
      picked.push_back(i);
      busy.push_back(&queue[i]);
    }
  }
  return picked;
}

}  // namespace dp
