#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "app/descriptors.h"

namespace dp {

void CloseDescriptorsFrom(int lowest) {
  if (::close_range(static_cast<unsigned>(lowest), ~0U, 0) == 0) return;
  // Kernels before 5.9: walk /proc/self/fd (collect first, then close).
  std::vector<int> fds;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (dirent* e = ::readdir(d)) {
      int fd = std::atoi(e->d_name);
      if (e->d_name[0] != '.' && fd >= lowest && fd != ::dirfd(d)) fds.push_back(fd);
    }
    ::closedir(d);
  }
  for (int fd : fds) ::close(fd);
}

}  // namespace dp
