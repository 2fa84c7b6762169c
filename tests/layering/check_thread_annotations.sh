#!/usr/bin/env bash
# The thread-safety annotations are live: with clang's -Wthread-safety (on in
# every clang build, and so in the FreeBSD compile check) a field marked
# GUARDED_BY(mu) read without mu held, a REQUIRES(mu) function called without
# it, or a MutexLock'd wait predicate missing its REQUIRES fail the build,
# while the same code holding the lock compiles. A header whose macros had
# gone empty under clang would pass anything: this plants both kinds of code
# and requires each outcome.
#
#   check_thread_annotations.sh SOURCE_DIR WORK_DIR
# Exit 77 (ctest: skipped) without clang++-14; a failure instead under
# CI=true (tests/support/skip.sh).
set -euo pipefail
src=$(cd "$1" && pwd)
work=$2
. "$src/tests/support/skip.sh"
command -v clang++-14 >/dev/null 2>&1 ||
  skip_without clang-14 "clang++-14 is not installed (Debian: clang-14)"
mkdir -p "$work"

check() {  # check FILE: clang's verdict on FILE, its messages in FILE.log
  clang++-14 -std=c++20 -fsyntax-only -Wthread-safety -Werror -I"$src/service/src" "$1" \
    >"$1.log" 2>&1
}

cat >"$work/held.cc" <<'CC'
#include "base/thread_annotations.h"
class Counter {
 public:
  void Add() {
    dp::MutexLock lock(mu_);
    ++n_;
    cv_.notify_all();
  }
  int WaitForOne() {
    dp::MutexLock lock(mu_);
    lock.Wait(cv_, [this]() REQUIRES(mu_) { return n_ > 0; });
    return Locked();
  }
  int Read() const {
    dp::ReaderLock lock(smu_);
    return shared_;
  }

 private:
  int Locked() const REQUIRES(mu_) { return n_; }
  mutable dp::Mutex mu_;
  std::condition_variable cv_;
  int n_ GUARDED_BY(mu_) = 0;
  mutable dp::SharedMutex smu_;
  int shared_ GUARDED_BY(smu_) = 0;
};
int main() { Counter c; c.Add(); return c.WaitForOne() + c.Read(); }
CC

cat >"$work/unheld.cc" <<'CC'
#include "base/thread_annotations.h"
class Counter {
 public:
  int Peek() const { return n_; }                       // line 4: read unlocked
  int Call() const { return Locked(); }                 // line 5: REQUIRES unmet
  void Wait() {
    dp::MutexLock lock(mu_);
    lock.Wait(cv_, [this] { return n_ > 0; });          // line 8: predicate unannotated
  }

 private:
  int Locked() const REQUIRES(mu_) { return n_; }
  mutable dp::Mutex mu_;
  std::condition_variable cv_;
  int n_ GUARDED_BY(mu_) = 0;
};
int main() { Counter c; c.Wait(); return c.Peek() + c.Call(); }
CC

status=0
if ! check "$work/held.cc"; then
  echo "FAIL: code that holds its locks does not compile under -Wthread-safety:" >&2
  cat "$work/held.cc.log" >&2
  status=1
fi
if check "$work/unheld.cc"; then
  echo "FAIL: unlocked reads compiled under -Wthread-safety: the annotations are not live" >&2
  status=1
else
  for line in 4 5 8; do
    if ! grep -q "unheld\.cc:$line:.*requires holding mutex" "$work/unheld.cc.log"; then
      echo "FAIL: unheld.cc:$line was not reported; clang said:" >&2
      cat "$work/unheld.cc.log" >&2
      status=1
    fi
  done
fi
[ "$status" = 0 ] && echo "thread annotations live: held code compiles, 3 unlocked uses reported"
exit "$status"
