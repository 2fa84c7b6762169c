// The wire protocol between the unprivileged daemon and its privileged helper
// (priv_helper.h), over a socketpair(AF_UNIX, SOCK_SEQPACKET).
//
// A request is one packet of at most kMaxRequestBytes: a byte op, then
// length-prefixed fields in host byte order (both ends are the same binary):
//   kOpenDevice: string path
//   kRunTool:    string tool_id, u32 timeout_ms, u64 max_output_bytes,
//                u32 argc, argc x string
// A reply is one or more packets of at most kMaxPacketBytes, each starting
// with a byte "more packets follow" (1) or "last" (0); the payloads joined:
//   kError:  u32 status code, string message
//   kDevice: nothing more; the descriptor rides on the first packet (SCM_RIGHTS)
//   kOutput: i32 exit_code, i32 term_signal, u8 stdout_truncated,
//            u8 stderr_truncated, u64 microseconds, string stdout, string stderr
// Every size is bounded and every decode checks its bounds; trailing bytes
// are an error. Pure encoding plus the socket send/receive helpers; no state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"

namespace dp::priv {

inline constexpr std::size_t kMaxRequestBytes = 64 * 1024;
inline constexpr std::size_t kMaxPacketBytes = 32 * 1024;
inline constexpr std::size_t kMaxReplyBytes = 40 * 1024 * 1024;  // 2 x 16 MiB output + slack
inline constexpr std::size_t kMaxPathBytes = 4096;
inline constexpr std::size_t kMaxArgs = 64;
inline constexpr std::uint64_t kMaxOutputBytes = 16 * 1024 * 1024;
inline constexpr std::uint32_t kMaxTimeoutMs = 6 * 3600 * 1000;

enum class Op : std::uint8_t { kOpenDevice = 1, kRunTool = 2 };
enum class ReplyKind : std::uint8_t { kError = 0, kDevice = 1, kOutput = 2 };

struct Request {
  Op op = Op::kOpenDevice;
  std::string path;  // kOpenDevice
  // kRunTool
  std::string tool_id;
  std::uint32_t timeout_ms = 0;
  std::uint64_t max_output_bytes = 0;
  std::vector<std::string> args;  // without the executable
};

struct Reply {
  ReplyKind kind = ReplyKind::kError;
  Status error;          // kError (never OK)
  CommandOutput output;  // kOutput
  int fd = -1;           // kDevice: the received descriptor (the caller owns it)
};

std::string EncodeRequest(const Request& request);
// InvalidArgument naming the first thing wrong.
Result<Request> DecodeRequest(const std::string& bytes);

std::string EncodeErrorReply(const Status& status);
std::string EncodeOutputReply(const CommandOutput& output);
std::string EncodeDeviceReply();
// Decodes the joined payload; fd is the descriptor that came with it (-1 none).
Result<Reply> DecodeReply(const std::string& bytes, int fd);

// One packet of at most max_bytes as received: its bytes, the descriptors
// that came with it (close-on-exec; the caller owns them), whether it was
// cut (longer than max_bytes) and whether the peer has closed (eof).
struct Packet {
  std::string bytes;
  std::vector<int> fds;
  bool truncated = false;
  bool eof = false;
};
Result<Packet> ReceivePacket(int sock, std::size_t max_bytes);

// Sends `payload` as reply packets on a SEQPACKET socket, the first carrying
// fd_to_pass (-1 none).
Status SendReply(int sock, const std::string& payload, int fd_to_pass = -1);
// Receives one reply: joins its packets, takes a passed descriptor
// (close-on-exec). Unavailable when the peer has gone.
Result<Reply> ReceiveReply(int sock);
// Sends one request packet (as it is: the helper checks it).
Status SendRequest(int sock, const std::string& bytes);

}  // namespace dp::priv
