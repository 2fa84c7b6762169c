// The unprivileged daemon's side of privilege separation (priv_helper.h):
// PrivChannel carries requests to the helper and its replies back;
// PrivilegedCommandRunner (the CommandRunner seam) and PrivilegedDeviceOpener
// (the DeviceOpener seam) turn the daemon's tool runs and device opens into
// requests, so bench, sched, smart and inventory work unchanged without root.
//
// Owned by the Daemon. Thread-safe: requests from several jobs are
// serialised on the one socket (a request waits while another tool runs;
// every tool run has its timeout).
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "app/priv_protocol.h"
#include "app/priv_tool_policy.h"
#include "base/command_runner.h"
#include "base/thread_annotations.h"
#include "bench/block_device.h"

namespace dp {

class PrivChannel {
 public:
  PrivChannel() = default;  // not attached yet: every call is Unavailable
  explicit PrivChannel(int fd) : fd_(fd) {}
  ~PrivChannel() { Close(); }
  PrivChannel(const PrivChannel&) = delete;
  PrivChannel& operator=(const PrivChannel&) = delete;

  // Takes ownership of the daemon's end of the helper's socketpair.
  void Attach(int fd);
  // Closes the socket: the helper exits when it sees that. Idempotent.
  void Close();
  // One request, one reply. Unavailable when the helper is not there.
  Result<priv::Reply> Call(const priv::Request& request);
  // The same with the request packet as it is (tests send malformed ones).
  Result<priv::Reply> CallRaw(const std::string& bytes);

 private:
  Mutex mu_;
  int fd_ GUARDED_BY(mu_) = -1;
};

// Runs the helper's tools (ToolPolicy ids) by asking it; argv[0] is the
// configured executable, mapped to its id. stdin_data is not supported.
class PrivilegedCommandRunner final : public CommandRunner {
 public:
  PrivilegedCommandRunner(PrivChannel& channel, ToolPolicy policy)
      : channel_(channel), policy_(std::move(policy)) {}
  Result<CommandOutput> Run(const CommandSpec& spec) override;

 private:
  PrivChannel& channel_;
  const ToolPolicy policy_;
};

// Disk nodes come from the helper (read-only descriptor, geometry read here);
// a regular file target is opened directly, with the daemon's own rights.
class PrivilegedDeviceOpener final : public DeviceOpener {
 public:
  explicit PrivilegedDeviceOpener(PrivChannel& channel) : channel_(channel) {}
  Result<std::unique_ptr<BlockDevice>> OpenReadOnly(const std::string& path) override;

 private:
  PrivChannel& channel_;
};

}  // namespace dp
