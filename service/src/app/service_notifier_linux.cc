// The sd_notify datagram on Linux: a SOCK_DGRAM unix socket per message,
// sent to the path or abstract name the service manager gave.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "app/service_notifier.h"

namespace dp {

bool NotifySupported() { return true; }

Status SendNotifyDatagram(const NotifyAddress& address, std::string_view message) {
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  if (address.path.size() + 1 > sizeof sa.sun_path)
    return InvalidArgument("socket name too long");
  std::size_t offset = address.abstract ? 1 : 0;  // abstract: a leading NUL
  std::memcpy(sa.sun_path + offset, address.path.data(), address.path.size());
  socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + offset +
                                         address.path.size() + (address.abstract ? 0 : 1));
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return ErrnoStatus(errno, "socket");
  ssize_t n = ::sendto(fd, message.data(), message.size(), MSG_NOSIGNAL,
                       reinterpret_cast<const sockaddr*>(&sa), len);
  int err = errno;
  ::close(fd);
  if (n < 0) return ErrnoStatus(err, "sendto");
  if (static_cast<std::size_t>(n) != message.size()) return Internal("short datagram");
  return Status::Ok();
}

}  // namespace dp
