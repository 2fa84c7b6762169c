#include "app/priv_protocol.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

namespace dp::priv {
namespace {

class Writer {
 public:
  template <typename T>
  void Put(T v) {
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void PutString(const std::string& s) {
    Put<std::uint32_t>(static_cast<std::uint32_t>(s.size()));
    out_ += s;
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  template <typename T>
  bool Get(T& v) {
    if (in_.size() - pos_ < sizeof v) return false;
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return true;
  }
  bool GetString(std::string& s, std::size_t max) {
    std::uint32_t n = 0;
    if (!Get(n) || n > max || in_.size() - pos_ < n) return false;
    s.assign(in_, pos_, n);
    pos_ += n;
    return true;
  }
  bool AtEnd() const { return pos_ == in_.size(); }

 private:
  const std::string& in_;
  std::size_t pos_ = 0;
};

// A string holds no NUL (paths and argv go to the OS as C strings).
bool HasNul(const std::string& s) { return s.find('\0') != std::string::npos; }

}  // namespace

std::string EncodeRequest(const Request& r) {
  Writer w;
  w.Put<std::uint8_t>(static_cast<std::uint8_t>(r.op));
  if (r.op == Op::kOpenDevice) {
    w.PutString(r.path);
  } else {
    w.PutString(r.tool_id);
    w.Put<std::uint32_t>(r.timeout_ms);
    w.Put<std::uint64_t>(r.max_output_bytes);
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(r.args.size()));
    for (const auto& a : r.args) w.PutString(a);
  }
  return w.Take();
}

Result<Request> DecodeRequest(const std::string& bytes) {
  if (bytes.size() > kMaxRequestBytes) return InvalidArgument("request too large");
  Reader r(bytes);
  std::uint8_t op = 0;
  if (!r.Get(op)) return InvalidArgument("empty request");
  Request req;
  if (op == static_cast<std::uint8_t>(Op::kOpenDevice)) {
    req.op = Op::kOpenDevice;
    if (!r.GetString(req.path, kMaxPathBytes)) return InvalidArgument("malformed device path");
    if (req.path.empty() || HasNul(req.path)) return InvalidArgument("bad device path");
  } else if (op == static_cast<std::uint8_t>(Op::kRunTool)) {
    req.op = Op::kRunTool;
    std::uint32_t argc = 0;
    if (!r.GetString(req.tool_id, 64) || !r.Get(req.timeout_ms) || !r.Get(req.max_output_bytes) ||
        !r.Get(argc))
      return InvalidArgument("malformed tool request");
    if (argc > kMaxArgs) return InvalidArgument("too many arguments");
    req.args.resize(argc);
    for (auto& a : req.args) {
      if (!r.GetString(a, kMaxPathBytes)) return InvalidArgument("malformed tool argument");
      if (HasNul(a)) return InvalidArgument("NUL in a tool argument");
    }
    if (req.timeout_ms == 0 || req.timeout_ms > kMaxTimeoutMs)
      return InvalidArgument("timeout out of range");
    if (req.max_output_bytes == 0 || req.max_output_bytes > kMaxOutputBytes)
      return InvalidArgument("output limit out of range");
  } else {
    return InvalidArgument("unknown request " + std::to_string(op));
  }
  if (!r.AtEnd()) return InvalidArgument("trailing bytes after the request");
  return req;
}

std::string EncodeErrorReply(const Status& status) {
  Writer w;
  w.Put<std::uint8_t>(static_cast<std::uint8_t>(ReplyKind::kError));
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(status.code()));
  std::string msg = status.message();
  if (msg.size() > kMaxPathBytes) msg.resize(kMaxPathBytes);
  w.PutString(msg);
  return w.Take();
}

std::string EncodeOutputReply(const CommandOutput& o) {
  Writer w;
  w.Put<std::uint8_t>(static_cast<std::uint8_t>(ReplyKind::kOutput));
  w.Put<std::int32_t>(o.exit_code);
  w.Put<std::int32_t>(o.term_signal);
  w.Put<std::uint8_t>(o.stdout_truncated ? 1 : 0);
  w.Put<std::uint8_t>(o.stderr_truncated ? 1 : 0);
  w.Put<std::uint64_t>(static_cast<std::uint64_t>(std::llround(std::max(0.0, o.seconds) * 1e6)));
  w.PutString(o.stdout_text);
  w.PutString(o.stderr_text);
  return w.Take();
}

std::string EncodeDeviceReply() {
  Writer w;
  w.Put<std::uint8_t>(static_cast<std::uint8_t>(ReplyKind::kDevice));
  return w.Take();
}

Result<Reply> DecodeReply(const std::string& bytes, int fd) {
  Reader r(bytes);
  std::uint8_t kind = 0;
  Reply reply;
  if (!r.Get(kind)) return Corrupt("empty reply from the privileged helper");
  if (kind == static_cast<std::uint8_t>(ReplyKind::kError)) {
    std::uint32_t code = 0;
    std::string msg;
    if (!r.Get(code) || !r.GetString(msg, kMaxPathBytes) || !r.AtEnd() || code == 0 ||
        code > static_cast<std::uint32_t>(StatusCode::kInternal))
      return Corrupt("malformed error reply from the privileged helper");
    reply.kind = ReplyKind::kError;
    reply.error = Status(static_cast<StatusCode>(code), msg);
    return reply;
  }
  if (kind == static_cast<std::uint8_t>(ReplyKind::kDevice)) {
    if (!r.AtEnd() || fd < 0) return Corrupt("device reply without a descriptor");
    reply.kind = ReplyKind::kDevice;
    reply.fd = fd;
    return reply;
  }
  if (kind == static_cast<std::uint8_t>(ReplyKind::kOutput)) {
    CommandOutput& o = reply.output;
    std::uint8_t out_trunc = 0, err_trunc = 0;
    std::uint64_t micros = 0;
    if (!r.Get(o.exit_code) || !r.Get(o.term_signal) || !r.Get(out_trunc) || !r.Get(err_trunc) ||
        !r.Get(micros) || !r.GetString(o.stdout_text, kMaxOutputBytes) ||
        !r.GetString(o.stderr_text, kMaxOutputBytes) || !r.AtEnd())
      return Corrupt("malformed tool reply from the privileged helper");
    o.stdout_truncated = out_trunc != 0;
    o.stderr_truncated = err_trunc != 0;
    o.seconds = static_cast<double>(micros) / 1e6;
    reply.kind = ReplyKind::kOutput;
    return reply;
  }
  return Corrupt("unknown reply kind " + std::to_string(kind) + " from the privileged helper");
}

Status SendRequest(int sock, const std::string& bytes) {
  while (true) {
    ssize_t n = ::send(sock, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n == static_cast<ssize_t>(bytes.size())) return Status::Ok();
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
      return Unavailable("the privileged helper has gone");
    return ErrnoStatus(n < 0 ? errno : EIO, "send to the privileged helper");
  }
}

Status SendReply(int sock, const std::string& payload, int fd_to_pass) {
  std::size_t done = 0;
  bool first = true;
  do {
    std::size_t take = std::min(payload.size() - done, kMaxPacketBytes - 1);
    char more = done + take < payload.size() ? 1 : 0;
    iovec iov[2] = {{&more, 1}, {const_cast<char*>(payload.data()) + done, take}};
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = 2;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (first && fd_to_pass >= 0) {
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int));
      std::memcpy(CMSG_DATA(c), &fd_to_pass, sizeof(int));
    }
    ssize_t n = ::sendmsg(sock, &msg, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(errno, "send a reply");
    done += take;
    first = false;
  } while (done < payload.size());
  return Status::Ok();
}

Result<Packet> ReceivePacket(int sock, std::size_t max_bytes) {
  Packet packet;
  packet.bytes.resize(max_bytes);
  while (true) {
    iovec iov{packet.bytes.data(), packet.bytes.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 8)] = {};
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = ::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(errno, "receive on the privileged helper's socket");
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (std::size_t i = 0; i < count; ++i) {
        int fd = -1;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        packet.fds.push_back(fd);
      }
    }
    packet.eof = n == 0;
    packet.truncated = (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0;
    packet.bytes.resize(static_cast<std::size_t>(n));
    return packet;
  }
}

Result<Reply> ReceiveReply(int sock) {
  std::string payload;
  int fd = -1;
  auto fail = [&fd](Status s) -> Result<Reply> {
    if (fd >= 0) ::close(fd);
    return s;
  };
  while (true) {
    auto packet = ReceivePacket(sock, kMaxPacketBytes);
    if (!packet.ok()) return fail(packet.status());
    for (int got : packet->fds) {
      if (fd < 0)
        fd = got;
      else
        ::close(got);  // only ever one is expected
    }
    if (packet->eof) return fail(Unavailable("the privileged helper has gone"));
    if (packet->truncated) return fail(Corrupt("oversized packet from the privileged helper"));
    if (payload.size() + packet->bytes.size() - 1 > kMaxReplyBytes)
      return fail(Corrupt("reply from the privileged helper exceeds its limit"));
    payload.append(packet->bytes, 1);
    if (packet->bytes[0] == 0) break;
  }
  auto reply = DecodeReply(payload, fd);
  if (!reply.ok()) return fail(reply.status());
  if (reply->kind != ReplyKind::kDevice && fd >= 0) ::close(fd);
  return reply;
}

}  // namespace dp::priv
