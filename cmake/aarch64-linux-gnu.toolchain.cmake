# Cross-builds diskpulse for 64-bit ARM Linux on Debian with its cross
# toolchain (g++-aarch64-linux-gnu) and the arm64 libraries of multiarch
# (libsqlite3-dev:arm64, libssl-dev:arm64, ...; scripts/setup.sh with
# DP_SETUP_ARM64=1 installs them). The tests run under qemu-user-static:
# CMAKE_CROSSCOMPILING_EMULATOR makes ctest (and GoogleTest's discovery) run
# each test executable through it. See scripts/arm64.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L /usr/aarch64-linux-gnu)
# Libraries and headers of the arm64 multiarch folders, programs of the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config (liburing) reads the arm64 .pc files.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# GCC notes that passing std::pair<double, double> changed with GCC 10.1 on
# arm64; it matters only beside code built by an older compiler, and
# everything here is built by one, so the note is noise in the build log.
set(CMAKE_CXX_FLAGS_INIT "-Wno-psabi")
