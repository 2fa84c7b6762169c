#include "app/priv_helper.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "app/descriptors.h"
#include "app/priv_protocol.h"
#include "base/log.h"
#include "bench/block_device.h"

namespace dp {
namespace {

constexpr int kHelperFd = 3;  // the helper's end, after CloseDescriptorsFrom

// One request packet; closes any descriptor a client tried to pass.
// Returns the packet, "" with *eof at EOF, or an error for an oversized one.
Result<std::string> ReceiveRequest(int sock, bool* eof) {
  DP_ASSIGN_OR_RETURN(priv::Packet packet, priv::ReceivePacket(sock, priv::kMaxRequestBytes));
  for (int fd : packet.fds) ::close(fd);
  *eof = packet.eof;
  if (packet.truncated) return InvalidArgument("request too large");
  return std::move(packet.bytes);
}

// The reply to one packet: payload and the descriptor to pass (-1 none).
struct Answer {
  std::string payload;
  int fd = -1;
};

Answer Handle(const std::string& packet, const ToolPolicy& policy, CommandRunner& runner) {
  auto refuse = [](const Status& s) {
    LogWarning("privileged helper: refused: " + s.message());
    return Answer{priv::EncodeErrorReply(s), -1};
  };
  auto request = priv::DecodeRequest(packet);
  if (!request.ok()) return refuse(request.status());
  if (request->op == priv::Op::kOpenDevice) {
    auto fd = OpenDiskReadOnly(request->path);
    if (!fd.ok()) return refuse(fd.status());
    LogDebug("privileged helper: opened " + request->path + " read-only");
    return Answer{priv::EncodeDeviceReply(), *fd};
  }
  auto argv = policy.CheckToolRequest(request->tool_id, request->args);
  if (!argv.ok()) return refuse(argv.status());
  CommandSpec spec;
  spec.argv = std::move(argv).value();
  spec.timeout = std::chrono::milliseconds(request->timeout_ms);
  spec.max_output_bytes = static_cast<std::size_t>(request->max_output_bytes);
  LogDebug("privileged helper: running " + FormatArgv(spec.argv));
  auto out = runner.Run(spec);
  if (!out.ok()) return Answer{priv::EncodeErrorReply(out.status()), -1};
  return Answer{priv::EncodeOutputReply(*out), -1};
}

}  // namespace

Result<int> OpenDiskReadOnly(const std::string& path) {
  if (path.empty() || path[0] != '/')
    return InvalidArgument("'" + path + "': not an absolute path");
  char resolved[PATH_MAX];
  if (!::realpath(path.c_str(), resolved)) return ErrnoStatus(errno, path);
  const std::string real = resolved;
  struct stat st {};
  if (::stat(real.c_str(), &st) != 0) return ErrnoStatus(errno, path);
  if (!internal::IsDiskNode(st))
    return InvalidArgument(path + ": not a disk device; the helper opens only disk devices");
  // Only nodes in root's /dev: a path the daemon controls cannot be swapped
  // for another node between this check and the open.
  if (real.compare(0, 5, "/dev/") != 0)
    return PermissionDenied(path + ": resolves to " + real + ", which is not under /dev");
  // O_NONBLOCK: never wait in open(); cleared again below.
  int fd = ::open(real.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    int err = errno;
    if (err == EINVAL) return Unsupported(path + ": direct (uncached) reads are not supported");
    return ErrnoStatus(err, path);
  }
  struct stat fst {};
  if (::fstat(fd, &fst) != 0 || !internal::IsDiskNode(fst) || fst.st_rdev != st.st_rdev) {
    ::close(fd);
    return Unavailable(path + ": changed while being opened");
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

void ServePrivRequests(int sock, const ToolPolicy& policy, CommandRunner& runner) {
  while (true) {
    bool eof = false;
    auto packet = ReceiveRequest(sock, &eof);
    if (eof) return;
    Answer answer;
    if (!packet.ok()) {
      if (packet.status().code() != StatusCode::kInvalidArgument) {
        LogError("privileged helper: " + packet.status().ToString() + "; exiting");
        return;
      }
      LogWarning("privileged helper: refused: " + packet.status().message());
      answer.payload = priv::EncodeErrorReply(packet.status());
    } else {
      answer = Handle(*packet, policy, runner);
    }
    Status sent = priv::SendReply(sock, answer.payload, answer.fd);
    if (answer.fd >= 0) ::close(answer.fd);
    if (!sent.ok()) return;  // the daemon has gone
  }
}

Result<PrivHelperProcess> StartPrivHelper(const ToolPolicy& policy) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return ErrnoStatus(errno, "socketpair for the privileged helper");
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    ::close(sv[0]);
    ::close(sv[1]);
    return ErrnoStatus(err, "fork the privileged helper");
  }
  if (pid == 0) {
    // The helper. Keep stdio (logging) and our end as fd 3; drop the rest.
    // Fd 3 stays close-on-exec: the tools it runs never see the socket.
    if (sv[1] != kHelperFd && ::dup2(sv[1], kHelperFd) < 0) ::_exit(1);
    if (::fcntl(kHelperFd, F_SETFD, FD_CLOEXEC) != 0) ::_exit(1);
    CloseDescriptorsFrom(kHelperFd + 1);
    ::signal(SIGPIPE, SIG_IGN);
    if (::chdir("/") != 0) ::_exit(1);
    PosixCommandRunner runner;
    ServePrivRequests(kHelperFd, policy, runner);
    ::_exit(0);
  }
  ::close(sv[1]);
  return PrivHelperProcess{pid, sv[0]};
}

}  // namespace dp
