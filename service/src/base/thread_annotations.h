// What each mutex guards, said so the compiler checks it: clang's thread
// safety analysis (-Wthread-safety, on in every clang build of the project)
// fails the build when a field marked GUARDED_BY(mu) is read or written
// without mu held, or a function marked REQUIRES(mu) / EXCLUDES(mu) is called
// with mu in the wrong state. With g++ the macros are empty and the code is
// the same.
//
// libstdc++'s std::mutex carries no annotations, so the analysis cannot see
// it taken: guarded state uses dp::Mutex and dp::MutexLock (dp::SharedMutex
// with ReaderLock / WriterLock for reader-writer state), thin annotated
// wrappers over the standard types. A condition variable waits through the
// lock (MutexLock::Wait*); a predicate that reads guarded state says so:
// `[this]() REQUIRES(mu_) { return stop_; }`.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <utility>

#if defined(__clang__)
#define DP_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define DP_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) DP_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY DP_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) DP_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) DP_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) DP_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) DP_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define EXCLUDES(...) DP_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) DP_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) DP_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define RELEASE(...) DP_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) DP_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) DP_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define NO_THREAD_SAFETY_ANALYSIS DP_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace dp {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }

 private:
  friend class MutexLock;
  std::mutex mu_;
};

// Holds a Mutex for its scope; Unlock / Lock let go of it early and take it
// again, and Wait* wait on a condition variable (the mutex is let go while
// waiting and held again on return, as std::condition_variable does).
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : lock_(mu.mu_) {}
  ~MutexLock() RELEASE() {}
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void Unlock() RELEASE() { lock_.unlock(); }
  void Lock() ACQUIRE() { lock_.lock(); }

  // The waits of std::condition_variable, on this lock. The analysis does
  // not follow the lock into the standard library: the predicate says what
  // it needs (REQUIRES) and is called here with the lock held.
  template <class Pred>
  void Wait(std::condition_variable& cv, Pred pred) NO_THREAD_SAFETY_ANALYSIS {
    cv.wait(lock_, std::move(pred));
  }
  template <class Rep, class Period, class Pred>
  bool WaitFor(std::condition_variable& cv, const std::chrono::duration<Rep, Period>& d,
               Pred pred) NO_THREAD_SAFETY_ANALYSIS {
    return cv.wait_for(lock_, d, std::move(pred));
  }
  template <class Clock, class Duration, class Pred>
  bool WaitUntil(std::condition_variable& cv, const std::chrono::time_point<Clock, Duration>& t,
                 Pred pred) NO_THREAD_SAFETY_ANALYSIS {
    return cv.wait_until(lock_, t, std::move(pred));
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

class CAPABILITY("shared mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }
  void lock_shared() ACQUIRE_SHARED() { mu_.lock_shared(); }
  void unlock_shared() RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds a SharedMutex shared (readers) or exclusive (a writer) for its scope.
class SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mu) ACQUIRE_SHARED(mu) : mu_(mu) { mu_.lock_shared(); }
  ~ReaderLock() RELEASE() { mu_.unlock_shared(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex& mu_;
};

class SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~WriterLock() RELEASE() { mu_.unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex& mu_;
};

}  // namespace dp
