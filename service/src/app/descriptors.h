// CloseDescriptorsFrom: closes every descriptor >= lowest in this process, so
// a forked privileged helper keeps nothing of the daemon's (listening socket,
// database, locks). Platform parts in descriptors_linux.cc / _freebsd.cc.
#pragma once

namespace dp {

void CloseDescriptorsFrom(int lowest);

}  // namespace dp
