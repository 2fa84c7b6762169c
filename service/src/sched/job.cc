#include "sched/job.h"

namespace dp {

bool IsHeavyTest(std::string_view test) {
  const std::optional<TestKind> k = KindOfTest(test);
  return !k || *k == TestKind::kRead || *k == TestKind::kPoolWrite;
}

std::vector<std::string> Job::Drives() const {
  if (!drive_id.empty()) return {drive_id};
  return member_ids;
}

std::string Job::Describe() const {
  std::string on;
  if (!drive_id.empty())
    on = drive_name.empty() ? drive_id : drive_name;
  else if (!vdev.empty())
    on = pool + "/" + vdev;
  else
    on = pool;
  return test + " on " + on;
}

}  // namespace dp
