// The privileged helper (docs/security.md, after OpenBSD's
// privilege-separated daemons). When diskpulsed starts as root with `user`
// set, Daemon::Start forks it before dropping privileges; it keeps root,
// closes every descriptor but its end of a socketpair(AF_UNIX,
// SOCK_SEQPACKET) and stdio, and answers a closed list of requests
// (priv_protocol.h):
//   - OPEN_DEVICE: a disk node under /dev (Linux block device, FreeBSD disk
//     character device), opened O_RDONLY | O_DIRECT | O_CLOEXEC — never
//     writable — and handed back with SCM_RIGHTS;
//   - RUN_TOOL: a tool id on the ToolPolicy list with one of its known
//     argument shapes, run by PosixCommandRunner (argv, timeouts) as root.
// Anything else, or a malformed packet, gets an error reply and the helper
// goes on. It exits when the daemon's end closes (the daemon stopped or
// died), so it never outlives the daemon.
//
// Forked, not re-executed: the helper is set up before any thread exists and
// never returns into daemon code (it ends with _exit), and fork keeps the
// start-up order in one place without finding our own binary again. The
// helper is single-threaded; one request at a time.
#pragma once

#include <sys/types.h>

#include <string>

#include "app/priv_tool_policy.h"
#include "base/command_runner.h"
#include "base/result.h"

namespace dp {

struct PrivHelperProcess {
  pid_t pid = -1;
  int fd = -1;  // the daemon's end of the socketpair (close-on-exec); the caller owns it
};

// Forks the helper. Call while still root and before starting any thread.
Result<PrivHelperProcess> StartPrivHelper(const ToolPolicy& policy);

// The helper's loop: answers requests on `sock` until the peer closes it.
// Runs in the helper process (tests call it in a forked child).
void ServePrivRequests(int sock, const ToolPolicy& policy, CommandRunner& runner);

// OPEN_DEVICE's check and open: `path` must resolve to a disk node under
// /dev; the descriptor is O_RDONLY | O_DIRECT | O_CLOEXEC.
Result<int> OpenDiskReadOnly(const std::string& path);

}  // namespace dp
