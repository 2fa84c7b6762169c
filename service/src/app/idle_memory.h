// Keeping the resident daemon small at rest. Measured with benchmarks/idle_footprint.sh
// (24 drives configured, idle): of 10.9 MB RSS only 1.8 MB was the process's
// own (heap, thread arenas and stacks); the rest were code and read-only data
// pages of the binary and its libraries (3.2 MB of diskpulsed, 1.6 libstdc++,
// 1.4 libcrypto, 1.4 libc, 1.2 libsqlite3), touched once at start-up and by
// the occasional discovery or run, and then kept mapped.
//
// LimitMallocArenas: glibc gives threads arenas of their own (up to 8 per
// core), each keeping what it freed; a daemon whose threads mostly sleep needs
// two. Call in main before any thread starts.
// TrimIdleMemory: returns free heap to the kernel (malloc_trim) and drops this
// process's mappings of file pages it has not modified (code, read-only data;
// never a page with a private copy, e.g. relocated RELRO data), which the
// kernel maps back from the page cache the next time they are used. Called at
// rest (the daemon's main loop, every few minutes). Both do nothing where the
// platform has no such calls (FreeBSD's jemalloc returns memory itself).
#pragma once

#include <cstdint>

namespace dp {

void LimitMallocArenas();
// Returns the KiB of mappings dropped (0 where not supported).
std::uint64_t TrimIdleMemory();

}  // namespace dp
