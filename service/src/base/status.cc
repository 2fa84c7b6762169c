#include "base/status.h"

#include <cerrno>
#include <cstring>

namespace dp {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kPermissionDenied: return "permission denied";
    case StatusCode::kAlreadyExists: return "already exists";
    case StatusCode::kFailedPrecondition: return "failed precondition";
    case StatusCode::kIoError: return "I/O error";
    case StatusCode::kTimeout: return "timeout";
    case StatusCode::kCancelled: return "cancelled";
    case StatusCode::kCorrupt: return "corrupt";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kResourceExhausted: return "resource exhausted";
    case StatusCode::kUnavailable: return "unavailable";
    case StatusCode::kInternal: return "internal error";
  }
  return "unknown";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out(StatusCodeName(code_));
  if (!message_.empty()) {
    out += ": ";
    out += message_;
  }
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string m(context);
  m += ": ";
  m += message_;
  return Status(code_, std::move(m));
}

Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
Status PermissionDenied(std::string m) { return {StatusCode::kPermissionDenied, std::move(m)}; }
Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
Status FailedPrecondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
Status Timeout(std::string m) { return {StatusCode::kTimeout, std::move(m)}; }
Status Cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
Status Corrupt(std::string m) { return {StatusCode::kCorrupt, std::move(m)}; }
Status Unsupported(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
Status ResourceExhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

Status ErrnoStatus(int err, std::string_view context) {
  std::string m(context);
  m += ": ";
  m += std::strerror(err);
  switch (err) {
    case ENOENT:
    case ENXIO:
    case ENODEV:
      return NotFound(std::move(m));
    case EACCES:
    case EPERM:
    case EROFS:
      return PermissionDenied(std::move(m));
    case EEXIST:
      return AlreadyExists(std::move(m));
    case EINVAL:
    case ENOTDIR:
    case EISDIR:
      return InvalidArgument(std::move(m));
    case ENOSPC:
    case EMFILE:
    case ENFILE:
    case ENOMEM:
      return ResourceExhausted(std::move(m));
    case ETIMEDOUT:
      return Timeout(std::move(m));
    case EINTR:
    case ECANCELED:
      return Cancelled(std::move(m));
    default:
      return IoError(std::move(m));
  }
}

}  // namespace dp
