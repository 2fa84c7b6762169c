#!/usr/bin/env bash
# Installs the Debian 12 packages diskpulse needs, only those that are missing
# (apt-get runs only when something is absent). Idempotent. Without flags:
# what building and running the daemon and the CLI needs (scripts/run.sh);
# DP_SETUP_TEST_TOOLS=1 and DP_SETUP_BROWSER=1 add what the tests need
# (scripts/test.sh), DP_SETUP_ARM64=1 the arm64 cross build, DP_SETUP_FUZZ=1
# libFuzzer.
set -euo pipefail

# What diskpulsed and diskpulse need to build and run (scripts/run.sh installs
# these and nothing else): the compiler and CMake, the libraries they link,
# smartctl and the time zones the schedules are read in.
pkgs=(g++ cmake make pkg-config libboost-dev nlohmann-json3-dev libsqlite3-dev zlib1g-dev libssl-dev
      libmosquitto-dev liburing-dev util-linux smartmontools tzdata)
# Test-only tools whose Debian packages enable and start services: the tests
# run the programs themselves (mosquitto on a free loopback port, promtool,
# amtool, podman without its API socket, dockerd on a private socket of
# tests/packaging/container_test.sh), so these are installed with service
# starts refused and these units of theirs left disabled
# (install_test_services below).
declare -A test_service_units=(
  [mosquitto]="mosquitto.service"
  [prometheus]="prometheus.service"
  [prometheus-alertmanager]="prometheus-alertmanager.service"
  [podman]="podman.socket podman.service podman-restart.service podman-auto-update.timer podman-auto-update.service"
  [docker.io]="docker.service docker.socket containerd.service")
if [ "${DP_SETUP_BROWSER:-0}" = 1 ]; then
  pkgs+=(chromium)
fi
# What only the test command needs (scripts/test.sh sets it): the test
# suite's own libraries and tools (below), the OpenAPI response validator,
# node for the OpenAPI lint, and libfaketime to move the wall clock of a
# running daemon (tests/e2e/clock_jump_e2e_test.cc);
# clang 14 and libc++ 14's headers for the FreeBSD compile check
# (tests/freebsd/compile_check.sh); podman, runc and mmdebstrap to build and
# run the container image (tests/packaging/container_test.sh; docker.io,
# below, runs it under docker too); aiosmtpd, the
# SMTP server the mail sink's tests start (tests/alert/smtp_server.py).
if [ "${DP_SETUP_TEST_TOOLS:-0}" = 1 ]; then
  # GoogleTest; fio (the contention guard's foreign load), sqlite3, curl,
  # procps and python3 (script tests, benchmarks/vs_fio.sh); dpkg-dev and
  # init-system-helpers for the .deb (dpkg-shlibdeps, deb-systemd-helper).
  pkgs+=(libgtest-dev libgmock-dev fio sqlite3 curl procps python3 dpkg-dev init-system-helpers)
  pkgs+=(python3-jsonschema nodejs libfaketime clang-14 libc++-14-dev runc mmdebstrap
         python3-aiosmtpd)
  # lld links the test executables in half gold's time and a quarter of
  # ld.bfd's (DEVELOPING.md "Build time"); CMake falls back to gold without it.
  pkgs+=(lld)
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

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${pkgs[@]}"; do
  installed "$p" || missing+=("$p")
done
missing_services=()
if [ "${DP_SETUP_TEST_TOOLS:-0}" = 1 ]; then
  for p in mosquitto prometheus prometheus-alertmanager podman docker.io; do
    installed "$p" || missing_services+=("$p")
  done
fi

# Debian's mosquitto, prometheus, prometheus-alertmanager, podman and
# docker.io enable their units and start them from their maintainer scripts
# (listening on :1883, :9090, :9093, podman's and docker's API sockets). While they install, a policy-rc.d that refuses every
# start (exit 101, honoured by deb-systemd-invoke and invoke-rc.d) keeps them
# stopped; afterwards their units are disabled (and stopped, should a start
# have slipped through another policy-rc.d), so nothing listens at boot
# either. Packages that were already installed are left as they are.
policy_rc_d=${DP_POLICY_RC_D:-/usr/sbin/policy-rc.d}
install_test_services() {
  local placed=0
  if [ ! -e "$policy_rc_d" ]; then
    printf '#!/bin/sh\n# scripts/setup.sh: no service starts while test tools install\nexit 101\n' >"$policy_rc_d"
    chmod 0755 "$policy_rc_d"
    placed=1
    trap 'rm -f "$policy_rc_d"' EXIT
  fi
  apt-get install -y -qq --no-install-recommends "$@"
  if [ "$placed" = 1 ]; then
    rm -f "$policy_rc_d"
    trap - EXIT
  fi
  local p unit
  for p in "$@"; do
    if command -v systemctl >/dev/null 2>&1; then
      for unit in ${test_service_units[$p]}; do
        if [ -d /run/systemd/system ]; then
          systemctl disable --now --quiet "$unit" || echo "setup: could not disable and stop $unit" >&2
        else
          systemctl disable --quiet "$unit" || echo "setup: could not disable $unit" >&2
        fi
      done
    elif [ -x "/etc/init.d/$p" ] && command -v update-rc.d >/dev/null 2>&1; then
      update-rc.d "$p" disable >/dev/null || echo "setup: could not disable /etc/init.d/$p" >&2
    fi
  done
  echo "setup: ${*} installed as tools for the tests: their services are disabled and stopped"
}

if [ "${#missing[@]}" -gt 0 ] || [ "${#missing_services[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]} ${missing_services[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install packages (run as root or install: ${missing[*]} ${missing_services[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if [ "${#missing[@]}" -gt 0 ]; then
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  if [ "${#missing_services[@]}" -gt 0 ]; then
    install_test_services "${missing_services[@]}"
  fi
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
