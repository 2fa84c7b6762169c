// Status: the outcome of an operation that can fail, as a value (leveldb-style).
// Cheap to copy; an OK status carries no message. Not thread-affine.
#pragma once

#include <string>
#include <string_view>

namespace dp {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    // the caller's input is wrong (bad config, bad path, bad request)
  kNotFound,           // a file, device, tool or record does not exist
  kPermissionDenied,   // the OS refused access
  kAlreadyExists,      // e.g. a second instance on the same pidfile
  kFailedPrecondition, // the system is not in a state that allows this (pool scrubbing, ...)
  kIoError,            // a read/write/syscall failed
  kTimeout,            // a deadline passed (a hung child process, a slow peer)
  kCancelled,          // stopped on request (signal, API cancel)
  kCorrupt,            // data that should be well-formed is not (DB, tool output)
  kUnsupported,        // not available on this platform / version
  kResourceExhausted,  // out of space, a budget or a cap was reached
  kUnavailable,        // a peer or service cannot be reached right now
  kInternal,           // a bug
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "not found: /dev/sdx: No such file or directory"
  std::string ToString() const;

  // Returns a copy whose message is "context: message".
  Status WithContext(std::string_view context) const;

  bool operator==(const Status&) const = default;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

Status InvalidArgument(std::string message);
Status NotFound(std::string message);
Status PermissionDenied(std::string message);
Status AlreadyExists(std::string message);
Status FailedPrecondition(std::string message);
Status IoError(std::string message);
Status Timeout(std::string message);
Status Cancelled(std::string message);
Status Corrupt(std::string message);
Status Unsupported(std::string message);
Status ResourceExhausted(std::string message);
Status Unavailable(std::string message);
Status Internal(std::string message);

// Maps an errno value to a Status with "context: strerror(err)" as message
// (ENOENT -> kNotFound, EACCES/EPERM -> kPermissionDenied, ...).
Status ErrnoStatus(int err, std::string_view context);

}  // namespace dp

#define DP_RETURN_IF_ERROR(expr)              \
  do {                                        \
    ::dp::Status dp_status_ = (expr);         \
    if (!dp_status_.ok()) return dp_status_;  \
  } while (0)
