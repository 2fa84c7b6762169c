#include <malloc.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "app/idle_memory.h"

namespace dp {

void LimitMallocArenas() { mallopt(M_ARENA_MAX, 2); }

std::uint64_t TrimIdleMemory() {
  malloc_trim(0);
  // /proc/self/smaps: a header line per mapping ("start-end perms offset dev
  // inode path"), then "Key: N kB" lines. A mapping is dropped only when it
  // is a file, not writable, and holds no anonymous (privately copied) page.
  std::ifstream in("/proc/self/smaps");
  std::string line;
  std::uint64_t dropped_kib = 0;
  unsigned long start = 0, end = 0;
  bool candidate = false;
  std::uint64_t rss_kib = 0;
  auto finish = [&](std::uint64_t anonymous_kib) {
    if (candidate && anonymous_kib == 0 && rss_kib > 0 &&
        ::madvise(reinterpret_cast<void*>(start), end - start, MADV_DONTNEED) == 0)
      dropped_kib += rss_kib;
    candidate = false;
  };
  while (std::getline(in, line)) {
    char perms[8] = {};
    char path[512] = {};
    unsigned long s = 0, e = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx %7s %*s %*s %*s %511s", &s, &e, perms, path) >= 3 &&
        std::strchr(line.c_str(), ':') && line.find(" kB") == std::string::npos) {
      start = s;
      end = e;
      rss_kib = 0;
      candidate = path[0] == '/' && perms[1] != 'w' && perms[3] == 'p';
      continue;
    }
    unsigned long v = 0;
    if (std::sscanf(line.c_str(), "Rss: %lu kB", &v) == 1) rss_kib = v;
    else if (std::sscanf(line.c_str(), "Anonymous: %lu kB", &v) == 1) finish(v);
  }
  return dropped_kib;
}

}  // namespace dp
