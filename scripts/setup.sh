#!/usr/bin/env bash
# Installs the Debian 12 packages diskpulse needs to build and test, only those
# that are missing (apt-get runs only when something is absent). Idempotent.
set -euo pipefail

pkgs=(g++ cmake make pkg-config libboost-dev nlohmann-json3-dev libsqlite3-dev zlib1g-dev libssl-dev
      libmosquitto-dev mosquitto  # the MQTT sink's client library; the broker its tests start
      libgtest-dev libgmock-dev liburing-dev util-linux smartmontools fio sqlite3 curl
      procps tzdata python3  # python3: benchmarks/vs_fio.sh only
      prometheus prometheus-alertmanager  # promtool, amtool: metrics lint, contrib/ rules
      dpkg-dev init-system-helpers)  # the .deb: dpkg-shlibdeps, deb-systemd-helper
if [ "${DP_SETUP_BROWSER:-0}" = 1 ]; then
  pkgs+=(chromium)
fi
# What only the test command needs (scripts/test.sh sets it): the OpenAPI
# response validator, node for the OpenAPI lint, and libfaketime to move the
# wall clock of a running daemon (tests/e2e/clock_jump_e2e_test.cc);
# clang 14 and libc++ 14's headers for the FreeBSD compile check
# (tests/freebsd/compile_check.sh); podman, runc and mmdebstrap to build and
# run the container image (tests/packaging/container_test.sh); aiosmtpd, the
# SMTP server the mail sink's tests start (tests/alert/smtp_server.py).
if [ "${DP_SETUP_TEST_TOOLS:-0}" = 1 ]; then
  pkgs+=(python3-jsonschema nodejs libfaketime clang-14 libc++-14-dev podman runc mmdebstrap
         python3-aiosmtpd)
fi
# npm: axe-core for the page's accessibility check and the OpenAPI lint
# (below). A machine whose Node.js already brings its own npm (e.g. a nodejs
# package from another repository, which conflicts with Debian's npm) keeps it.
if [ "${DP_SETUP_BROWSER:-0}" = 1 ] || [ "${DP_SETUP_TEST_TOOLS:-0}" = 1 ]; then
  command -v npm >/dev/null 2>&1 || pkgs+=(npm)
fi
# The arm64 cross build and its tests under qemu (scripts/arm64.sh, the test
# command's arm64 check): Debian's cross compiler, the arm64 libraries through
# multiarch (the header-only Boost and nlohmann_json are the host's) and
# qemu-user-static.
if [ "${DP_SETUP_ARM64:-0}" = 1 ]; then
  pkgs+=(g++-aarch64-linux-gnu qemu-user-static file libsqlite3-dev:arm64 libmosquitto-dev:arm64 zlib1g-dev:arm64
         libssl-dev:arm64 liburing-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64
         libstdc++6:arm64)  # the C++ runtime where the arm64 loader looks (the cross one is elsewhere)
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "setup: need root to add the arm64 architecture (dpkg --add-architecture arm64)" >&2
      exit 1
    fi
    echo "setup: adding the arm64 architecture to dpkg (multiarch)"
    dpkg --add-architecture arm64
  fi
fi
if [ "${DP_SETUP_FUZZ:-0}" = 1 ]; then  # benchmarks/fuzz.sh only: clang with libFuzzer
  pkgs+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install packages (run as root or install: ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The page's accessibility check (tests/webui) runs axe-core from npm in the
# browser; installed globally so every worktree and CI's clone find it at
# $(npm root -g)/axe-core/axe.min.js.
if [ "${DP_SETUP_BROWSER:-0}" = 1 ] && command -v npm >/dev/null 2>&1; then
  if [ ! -f "$(npm root -g)/axe-core/axe.min.js" ]; then
    echo "setup: installing axe-core (npm)"
    npm install -g --no-fund --no-audit axe-core@4 >/dev/null
  fi
fi

# The OpenAPI lint (@redocly/cli, pinned in package.json / package-lock.json)
# goes into the project's own node_modules, never system-wide.
if [ "${DP_SETUP_TEST_TOOLS:-0}" = 1 ]; then
  cd "$(dirname "$0")/.."
  if [ ! -x node_modules/.bin/redocly ] ||
     [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "setup: installing the npm tools of package.json into ./node_modules"
    npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
  fi
fi
