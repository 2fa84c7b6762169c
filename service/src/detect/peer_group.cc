#include <algorithm>

#include "detect/series_history.h"

namespace dp::detect {

PeerGroup PeerGroupOf(const DriveRef& self, const BoxLayout& box) {
  auto present = [&](const std::string& id) -> const DriveRef* {
    for (const DriveRef& d : box.drives)
      if (d.id == id) return &d;
    return nullptr;
  };
  const BoxLayout::VdevMembers* vdev = nullptr;
  for (const auto& v : box.vdevs)
    if (std::find(v.members.begin(), v.members.end(), self.id) != v.members.end()) vdev = &v;
  std::vector<DriveRef> same_vdev, other_vdev, same_box;
  if (vdev)
    for (const std::string& id : vdev->members) {
      const DriveRef* d = id == self.id ? nullptr : present(id);
      if (!d) continue;
      (d->model == self.model ? same_vdev : other_vdev).push_back(*d);
    }
  // Across the box only drives known to be alike: a drive that reports no
  // model (a loop device, a bridge hiding it) is compared within its vdev.
  if (!self.model.empty())
    for (const DriveRef& d : box.drives)
      if (d.id != self.id && d.model == self.model) same_box.push_back(d);

  PeerGroup out;
  if (same_vdev.size() >= 2) {
    out.group = vdev->group;
    out.siblings = std::move(same_vdev);
  } else if (same_box.size() >= 2) {
    out.group = "model:" + self.model;
    out.siblings = std::move(same_box);
  } else if (vdev && !other_vdev.empty()) {
    out.group = vdev->group;
    out.siblings = std::move(same_vdev);
    for (DriveRef& d : other_vdev) out.siblings.push_back(std::move(d));
    out.relative = true;
  } else if (!same_vdev.empty()) {
    out.group = vdev->group;
    out.siblings = std::move(same_vdev);
  } else if (!same_box.empty()) {
    out.group = "model:" + self.model;
    out.siblings = std::move(same_box);
  } else {
    return out;
  }
  out.owner = self.id;
  for (const DriveRef& s : out.siblings) out.owner = std::min(out.owner, s.id);
  return out;
}

Result<PeerGroup> SeriesHistory::Group(const DriveRef& drive) {
  DP_ASSIGN_OR_RETURN(const BoxLayout box, Box());
  return PeerGroupOf(drive, box);
}

}  // namespace dp::detect
