// FreeBSD's rc.d has no readiness socket: the notifier is always off there.
#include "app/service_notifier.h"

namespace dp {

bool NotifySupported() { return false; }

Status SendNotifyDatagram(const NotifyAddress&, std::string_view) {
  return Unsupported("the sd_notify protocol does not exist on FreeBSD");
}

}  // namespace dp
