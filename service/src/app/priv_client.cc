#include "app/priv_client.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace dp {

void PrivChannel::Attach(int fd) {
  MutexLock lock(mu_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

void PrivChannel::Close() {
  MutexLock lock(mu_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Result<priv::Reply> PrivChannel::Call(const priv::Request& request) {
  std::string bytes = priv::EncodeRequest(request);
  if (bytes.size() > priv::kMaxRequestBytes)
    return InvalidArgument("request too large for the privileged helper");
  return CallRaw(bytes);
}

Result<priv::Reply> PrivChannel::CallRaw(const std::string& bytes) {
  MutexLock lock(mu_);
  if (fd_ < 0) return Unavailable("the privileged helper is not running");
  DP_RETURN_IF_ERROR(priv::SendRequest(fd_, bytes));
  return priv::ReceiveReply(fd_);
}

Result<CommandOutput> PrivilegedCommandRunner::Run(const CommandSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty()) return InvalidArgument("empty command");
  if (spec.stdin_data)
    return InvalidArgument(FormatArgv(spec.argv) + ": the privileged helper takes no stdin");
  priv::Request req;
  req.op = priv::Op::kRunTool;
  // An executable not on the list goes by its own name: the helper refuses it.
  req.args.assign(spec.argv.begin() + 1, spec.argv.end());
  req.tool_id = policy_.IdFor(spec.argv[0], req.args);
  if (req.tool_id.empty()) req.tool_id = spec.argv[0];
  req.timeout_ms = static_cast<std::uint32_t>(
      std::clamp<long long>(spec.timeout.count(), 1, priv::kMaxTimeoutMs));
  req.max_output_bytes = std::clamp<std::uint64_t>(spec.max_output_bytes, 1, priv::kMaxOutputBytes);
  DP_ASSIGN_OR_RETURN(priv::Reply reply, channel_.Call(req));
  if (reply.kind == priv::ReplyKind::kError) return reply.error;
  if (reply.kind != priv::ReplyKind::kOutput) {
    if (reply.fd >= 0) ::close(reply.fd);
    return Corrupt("the privileged helper answered a tool run with a descriptor");
  }
  return std::move(reply.output);
}

Result<std::unique_ptr<BlockDevice>> PrivilegedDeviceOpener::OpenReadOnly(const std::string& path) {
  struct stat st {};
  // Files (and the directory error) need no root: BlockDevice says it all.
  if (::stat(path.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
    return BlockDevice::Open(path);
  priv::Request req;
  req.op = priv::Op::kOpenDevice;
  req.path = path;
  DP_ASSIGN_OR_RETURN(priv::Reply reply, channel_.Call(req));
  if (reply.kind == priv::ReplyKind::kError) return reply.error;
  if (reply.kind != priv::ReplyKind::kDevice) return Corrupt(path + ": no descriptor in the reply");
  return BlockDevice::Adopt(reply.fd, path);
}

}  // namespace dp
