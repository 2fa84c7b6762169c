// ConnectionSlots: the server's open connections, counted against a cap, and
// which of them may be closed to make room for a new one. A connection is
// "waiting" while the server waits on its client — a request head or body not
// yet complete, an idle keep-alive, a TLS handshake, a lingering close — and
// "busy" while its request is handled or its answer written. When every slot
// is taken, a new connection takes the place of the one that has been waiting
// longest: clients that open connections and never finish a request
// (slowloris) can only push each other out, never lock out a client that sends
// its request at once. A busy connection is never evicted; with every slot
// busy a new connection is refused.
//
// Owned by the server's shared state. Thread-safe (one mutex): sessions live
// on the network thread but may be destroyed on a handler thread. Evict() is
// called with the lock held, so a connection cannot be destroyed (and Close()
// itself) while it is being evicted; Evict() must not call back into this.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <unordered_map>

#include "base/thread_annotations.h"

namespace dp::http {

class ConnectionSlots {
 public:
  // What a waiting connection does when its place is taken: close its socket
  // at once (pending reads then complete with an error and it goes away).
  class Evictable {
   public:
    virtual void Evict() = 0;

   protected:
    ~Evictable() = default;
  };
  using Id = std::uint64_t;

  // Counts a new connection if there is room under `cap`, evicting the
  // connection that has been waiting longest when there is none. Returns its
  // id, or 0 when every slot is busy (refuse the connection).
  Id Open(int cap);
  // The connection now waits on its client (again); it goes to the back of
  // the eviction order.
  void Waiting(Id id, Evictable* who);
  // The connection is busy with a request: not evictable until Waiting().
  void Busy(Id id);
  // The connection is gone (or evicted before): frees its slot. Idempotent.
  void Close(Id id);

  int open() const;       // connections counted
  long evicted() const;   // connections evicted so far

 private:
  struct Entry {
    Evictable* who = nullptr;                 // set while waiting
    std::list<Id>::iterator in_waiting_order; // valid while waiting
  };
  void StopWaiting(Entry& e) REQUIRES(mu_);

  mutable Mutex mu_;
  Id next_id_ GUARDED_BY(mu_) = 1;
  std::unordered_map<Id, Entry> open_ GUARDED_BY(mu_);
  std::list<Id> waiting_ GUARDED_BY(mu_);  // oldest first
  long evicted_ GUARDED_BY(mu_) = 0;
};

}  // namespace dp::http
