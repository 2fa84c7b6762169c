// ConnectionSlots without sockets: the cap, eviction of the connection that
// has waited longest, busy connections kept, ids freed once.
#include "http/connection_slots.h"

#include <gtest/gtest.h>

#include <vector>

namespace dp::http {
namespace {

struct Conn : ConnectionSlots::Evictable {
  void Evict() override { ++evictions; }
  int evictions = 0;
};

TEST(ConnectionSlots, CountsUpToTheCap) {
  ConnectionSlots slots;
  auto a = slots.Open(2);
  auto b = slots.Open(2);
  EXPECT_NE(a, 0u);
  EXPECT_NE(b, 0u);
  EXPECT_NE(a, b);
  EXPECT_EQ(slots.open(), 2);
  // Full, and neither waits on its client (both busy): refused.
  EXPECT_EQ(slots.Open(2), 0u);
  slots.Close(a);
  slots.Close(a);  // idempotent
  EXPECT_EQ(slots.open(), 1);
  EXPECT_NE(slots.Open(2), 0u);
}

TEST(ConnectionSlots, EvictsTheConnectionWaitingLongest) {
  ConnectionSlots slots;
  Conn c1, c2, c3;
  auto a = slots.Open(3), b = slots.Open(3), c = slots.Open(3);
  slots.Waiting(a, &c1);
  slots.Waiting(b, &c2);
  slots.Waiting(c, &c3);
  slots.Waiting(a, &c1);  // a answered a request and waits again: now the newest
  auto d = slots.Open(3);
  ASSERT_NE(d, 0u);
  EXPECT_EQ(c2.evictions, 1);  // b has waited longest
  EXPECT_EQ(c1.evictions + c3.evictions, 0);
  EXPECT_EQ(slots.open(), 3);
  EXPECT_EQ(slots.evicted(), 1);
  // The evicted connection's later calls change nothing.
  slots.Waiting(b, &c2);
  slots.Close(b);
  EXPECT_EQ(slots.open(), 3);
  slots.Open(3);
  EXPECT_EQ(c3.evictions, 1);
}

TEST(ConnectionSlots, BusyConnectionsAreNotEvicted) {
  ConnectionSlots slots;
  Conn c1, c2;
  auto a = slots.Open(2), b = slots.Open(2);
  slots.Waiting(a, &c1);
  slots.Waiting(b, &c2);
  slots.Busy(a);  // its request is being handled
  ASSERT_NE(slots.Open(2), 0u);
  EXPECT_EQ(c1.evictions, 0);
  EXPECT_EQ(c2.evictions, 1);
  EXPECT_EQ(slots.Open(2), 0u);  // a busy, the newcomer not yet waiting
}

}  // namespace
}  // namespace dp::http
