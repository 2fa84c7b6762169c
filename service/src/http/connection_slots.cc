#include "http/connection_slots.h"

namespace dp::http {

ConnectionSlots::Id ConnectionSlots::Open(int cap) {
  MutexLock lock(mu_);
  if (static_cast<int>(open_.size()) >= cap) {
    if (waiting_.empty()) return 0;
    Id oldest = waiting_.front();
    Entry& e = open_.at(oldest);
    Evictable* who = e.who;
    StopWaiting(e);
    open_.erase(oldest);
    ++evicted_;
    who->Evict();
  }
  Id id = next_id_++;
  open_.emplace(id, Entry{});
  return id;
}

void ConnectionSlots::Waiting(Id id, Evictable* who) {
  MutexLock lock(mu_);
  auto it = open_.find(id);
  if (it == open_.end()) return;  // evicted meanwhile
  StopWaiting(it->second);
  it->second.who = who;
  it->second.in_waiting_order = waiting_.insert(waiting_.end(), id);
}

void ConnectionSlots::Busy(Id id) {
  MutexLock lock(mu_);
  auto it = open_.find(id);
  if (it != open_.end()) StopWaiting(it->second);
}

void ConnectionSlots::Close(Id id) {
  MutexLock lock(mu_);
  auto it = open_.find(id);
  if (it == open_.end()) return;
  StopWaiting(it->second);
  open_.erase(it);
}

int ConnectionSlots::open() const {
  MutexLock lock(mu_);
  return static_cast<int>(open_.size());
}

long ConnectionSlots::evicted() const {
  MutexLock lock(mu_);
  return evicted_;
}

void ConnectionSlots::StopWaiting(Entry& e) {
  if (!e.who) return;
  waiting_.erase(e.in_waiting_order);
  e.who = nullptr;
}

}  // namespace dp::http
