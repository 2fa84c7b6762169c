#!/usr/bin/env bash
# FreeBSD compile check: configures the whole project for x86_64 FreeBSD
# (cmake/freebsd-x86_64.toolchain.cmake) and compiles every file that the
# FreeBSD port builds - all modules with the *_freebsd.cc files instead of the
# *_linux.cc ones, the daemon and the CLI - to objects, warnings as errors.
# Fails, naming each file that did not compile and its errors.
# The test suite is not compiled: its harness is Linux's (loop devices,
# /proc, cgroups), and the port builds without it.
#
#   compile_check.sh SOURCE_DIR WORK_DIR            the check
#   compile_check.sh --self-test SOURCE_DIR WORK_DIR
#       compiles a planted file that uses a Linux-only header and requires the
#       check to fail naming it: a check that found the host's headers (and so
#       passed on anything) fails here.
# Exit 77 (ctest: skipped) when clang 14 or libc++ 14's headers are missing
# (scripts/setup.sh installs them for the test command); a failure instead
# under CI=true (tests/support/skip.sh).
set -euo pipefail

self_test=0
if [ "${1:-}" = --self-test ]; then
  self_test=1
  shift
fi
src=$(cd "$1" && pwd)
work=$2
jobs=${DP_FREEBSD_CHECK_JOBS:-2}
libcxx=/usr/lib/llvm-14/include/c++/v1

. "$src/tests/support/skip.sh"
command -v clang++-14 >/dev/null 2>&1 ||
  skip_without clang-14 "clang++-14 is not installed (Debian: clang-14)"
[ -f "$libcxx/vector" ] ||
  skip_without libc++-14 "libc++ 14's headers are missing at $libcxx (Debian: libc++-14-dev)"

# The third-party headers, from Debian's packages: Boost, nlohmann_json,
# GoogleTest, SQLite and zlib install the same headers on every architecture,
# so the host's copies are what a FreeBSD box's packages hold (same versions
# aside). Only those folders and files are linked in, never the whole of
# /usr/include (whose Linux headers would make Linux-only code pass).
# OpenSSL's configuration.h is the one per-architecture header: the host's
# x86_64 one is used, whose type choices (BN word size SIXTY_FOUR_BIT_LONG,
# RC4_INT) are those of any LP64 x86_64 build, FreeBSD's included; its
# OPENSSL_NO_* feature list may differ from a given FreeBSD build's, and
# diskpulse calls none of those optional features.
# The libraries are empty stand-ins: CMake's find modules want a file, and
# nothing is linked.
deps=$work/deps
rm -rf "$deps"
mkdir -p "$deps/include/openssl" "$deps/lib" "$deps/share/cmake"
for d in boost nlohmann gtest gmock; do
  ln -s "/usr/include/$d" "$deps/include/$d"
done
for f in sqlite3.h sqlite3ext.h zlib.h zconf.h; do
  ln -s "/usr/include/$f" "$deps/include/$f"
done
for f in /usr/include/openssl/*; do
  ln -s "$f" "$deps/include/openssl/"
done
for f in configuration.h opensslconf.h; do
  ln -sf "/usr/include/x86_64-linux-gnu/openssl/$f" "$deps/include/openssl/$f"
done
ln -s /usr/share/cmake/nlohmann_json "$deps/share/cmake/nlohmann_json"
for l in sqlite3 z ssl crypto gtest gtest_main gmock gmock_main; do
  : >"$deps/lib/lib$l.a"
done

toolchain=$src/cmake/freebsd-x86_64.toolchain.cmake
project=$src
build=$work/build
if [ "$self_test" = 1 ]; then
  # A one-file project compiled with the same toolchain and deps.
  project=$work/planted
  build=$work/planted-build
  rm -rf "$project" "$build"
  mkdir -p "$project"
  cat >"$project/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(planted LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(nlohmann_json REQUIRED)
find_package(Boost REQUIRED)
find_package(OpenSSL REQUIRED)
add_library(planted STATIC fine.cc linux_only.cc)
target_link_libraries(planted PRIVATE nlohmann_json::nlohmann_json Boost::boost OpenSSL::SSL)
EOF
  cat >"$project/fine.cc" <<'EOF'
#include <sys/disk.h>
#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <openssl/ssl.h>
unsigned Fine() { return sizeof(diocgattr_arg) + sizeof(boost::asio::io_context*); }
EOF
  cat >"$project/linux_only.cc" <<'EOF'
#include <linux/fs.h>
unsigned long LinuxOnly() { return BLKGETSIZE64; }
EOF
fi

log=$work/freebsd-build.log
mkdir -p "$build"
status=0
{
  cmake -S "$project" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DDP_FREEBSD_DEPS="$deps" \
        ${DP_FREEBSD_SYSROOT:+-DDP_FREEBSD_SYSROOT="$DP_FREEBSD_SYSROOT"} -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DDP_WERROR=ON -DDP_BUILD_TESTS=OFF &&
  cmake --build "$build" -j "$jobs" -- -k
} >"$log" 2>&1 || status=$?

# The errors, one line per file: "FILE:LINE:COL: error: ...".
errors=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: (fatal )?error:' "$log" | sort -u || true)
if [ "$self_test" = 1 ]; then
  if [ "$status" -eq 0 ]; then
    echo "FAIL: the planted Linux-only file compiled for FreeBSD: the check sees the host's headers" >&2
    exit 1
  fi
  if ! grep -q 'linux_only\.cc:1:10: fatal error: .linux/fs\.h. file not found' <<<"$errors"; then
    echo "FAIL: the check failed without naming linux_only.cc and its missing header; its log:" >&2
    tail -40 "$log" >&2
    exit 1
  fi
  if grep -q 'fine\.cc' <<<"$errors"; then
    echo "FAIL: the planted portable file did not compile for FreeBSD:" >&2
    grep 'fine\.cc' <<<"$errors" >&2
    exit 1
  fi
  echo "ok: the check fails on a Linux-only header and names the file:"
  echo "$errors"
  exit 0
fi

objects=$(find "$build" -name '*.o' | wc -l)
if [ "$status" -ne 0 ]; then
  echo "FreeBSD compile check FAILED (log: $log)"
  # The files that did not compile (an error's location may be a header).
  grep -E '\*\*\* \[.*\.o\] Error' "$log" |
    sed -E 's|.* ([^ ]*)CMakeFiles/[^/]+\.dir/(.*)\.o\] Error.*|  did not compile: \1\2|' | sort -u
  if [ -n "$errors" ]; then
    echo "$errors" | sed -E "s|^(\.\./)+|/|; s|^$src/||"
  else
    tail -40 "$log"
  fi
  exit 1
fi
echo "FreeBSD compile check passed: $objects objects for x86_64-unknown-freebsd13.0 (log: $log)"
