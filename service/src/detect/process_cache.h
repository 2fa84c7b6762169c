// ProcessCache: values that are a pure function of their key (quantile
// tables, prediction quantiles), computed once per process and read by every
// thread after. The daemon judges each job on a thread of its own; kept per
// thread, the student_t tables and the bands' quantiles were rebuilt for
// every run, ~300 ms of CPU against ~5 ms once built (benchmarks/judge_cost).
//
// Readers share a SharedMutex; an insertion takes it alone. Entries are
// never removed (a full cache stops taking new keys instead), so a pointer
// handed out stays valid for the life of the process and no reader can see a
// value freed under it. A miss is computed outside the lock, so a slow
// computation never stalls the readers; two threads missing the same key
// both compute it, and the first insertion is kept: the values are a
// function of the key, so both are the same bit for bit.
#pragma once

#include <cstddef>
#include <map>
#include <utility>

#include "base/thread_annotations.h"

namespace dp::detect {

template <typename Key, typename Value>
class ProcessCache {
 public:
  explicit ProcessCache(std::size_t capacity) : capacity_(capacity) {}
  ProcessCache(const ProcessCache&) = delete;
  ProcessCache& operator=(const ProcessCache&) = delete;

  // The cached value of key, or nullptr.
  const Value* Find(const Key& key) const {
    ReaderLock lock(mutex_);
    const auto it = values_.find(key);
    return it == values_.end() ? nullptr : &it->second;
  }

  // Keeps value for key unless the key is there already (the kept one is
  // returned) or the cache is full (nullptr: the caller uses its own).
  const Value* Insert(const Key& key, Value value) {
    WriterLock lock(mutex_);
    if (const auto it = values_.find(key); it != values_.end()) return &it->second;
    if (values_.size() >= capacity_) return nullptr;
    return &values_.emplace(key, std::move(value)).first->second;
  }

  // The value of key, computing it with make() on a miss.
  template <typename Make>
  Value Get(const Key& key, Make&& make) {
    if (const Value* v = Find(key)) return *v;
    Value fresh = make();
    if (const Value* v = Insert(key, fresh)) return *v;
    return fresh;
  }

  std::size_t size() const {
    ReaderLock lock(mutex_);
    return values_.size();
  }

 private:
  const std::size_t capacity_;
  mutable SharedMutex mutex_;
  std::map<Key, Value> values_ GUARDED_BY(mutex_);
};

}  // namespace dp::detect
