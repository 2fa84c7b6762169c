# Cross-compiles diskpulse for FreeBSD/amd64 on Debian, to check that every
# file a FreeBSD build compiles does compile there (tests/freebsd/): Debian's
# clang 14 targeting FreeBSD, libc++ 14's headers (FreeBSD's own C++ library
# is libc++ too), the FreeBSD headers vendored in third_party/freebsd-sysroot
# and a folder of third-party headers (DP_FREEBSD_DEPS, made by
# tests/freebsd/compile_check.sh). Nothing is linked: the sysroot has headers
# only, so every executable's link step is replaced by a touch of the output
# and the static libraries are archives of FreeBSD objects.
set(CMAKE_SYSTEM_NAME FreeBSD)
set(CMAKE_SYSTEM_VERSION 13.0)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(DP_FREEBSD_SYSROOT "${CMAKE_CURRENT_LIST_DIR}/../third_party/freebsd-sysroot"
    CACHE PATH "FreeBSD sysroot (usr/include)")
set(DP_FREEBSD_DEPS "" CACHE PATH "Prefix with the third-party headers (include/) and stand-in libraries (lib/)")
set(DP_LIBCXX_INCLUDE /usr/lib/llvm-14/include/c++/v1 CACHE PATH "libc++ headers")

set(CMAKE_CXX_COMPILER clang++-14)
set(CMAKE_CXX_COMPILER_TARGET x86_64-unknown-freebsd13.0)
set(CMAKE_SYSROOT "${DP_FREEBSD_SYSROOT}")
# libc++ rather than the host's libstdc++, and none of the host's headers:
# -nostdinc++ drops clang's C++ search path for the sysroot, which has no
# C++ headers of a usable age.
# Boost 1.74's Asio (Debian's, used for the check) calls std::result_of
# unless told std::invoke_result exists; libc++ removed result_of in C++20
# (libstdc++ only deprecates it), and the Boost releases FreeBSD ships (1.8x)
# pick invoke_result on their own.
set(CMAKE_CXX_FLAGS_INIT "-nostdinc++ -isystem ${DP_LIBCXX_INCLUDE} -DBOOST_ASIO_HAS_STD_INVOKE_RESULT=1")

# Headers-only sysroot: checks that would link build static libraries instead,
# and an executable's "link" only marks it built.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_CXX_LINK_EXECUTABLE "<CMAKE_COMMAND> -E touch <TARGET>")

# Find packages (SQLite3, OpenSSL, Boost, nlohmann_json, GTest...) only in the
# prepared prefix, never in the host's /usr.
set(CMAKE_FIND_ROOT_PATH "${DP_FREEBSD_DEPS}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The test executables cannot run here: list their tests when ctest runs
# (never, for this tree) rather than right after the "link".
set(CMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE PRE_TEST)
# File by file, not in unity batches (DP_UNITY in CMakeLists.txt): the check
# names each file that does not compile, and so every service file keeps
# compiling on its own includes, which the unity build of the test command
# would not notice.
set(DP_UNITY OFF CACHE BOOL "Compile each target's sources in batches (unity build)")
