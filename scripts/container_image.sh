#!/usr/bin/env bash
# Builds the container image (packaging/container/Containerfile) from a build
# of this checkout, with no registry:
#   1. mmdebstrap extracts Debian 12's packages of the runtime libraries and
#      smartmontools into rootfs.tar (no shell, no apt, no maintainer scripts),
#      with the user diskpulse (8470, group disk) and its state folder;
#   2. `cmake --install --strip` of BUILD_DIR for prefix /usr makes diskpulse.tar;
#   3. podman builds the image FROM scratch with both.
#   bash scripts/container_image.sh [BUILD_DIR] [TAG]   (as root; default build, diskpulse:VERSION)
# Packages come from $DP_DEBIAN_MIRROR (default http://deb.debian.org/debian).
# DP_IMAGE_ARCH=arm64 makes the arm64 image from an arm64 build (scripts/arm64.sh's
# build-arm64; scripts/release.sh does); default: this machine's architecture.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
version=$(sed -n 's/^project(diskpulse VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
tag=${2:-diskpulse:$version}
mirror=${DP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
arch=${DP_IMAGE_ARCH:-$(dpkg --print-architecture)}
for tool in mmdebstrap podman; do
  command -v "$tool" >/dev/null || { echo "container_image: $tool is missing (scripts/setup.sh)" >&2; exit 1; }
done
[ -x "$build/service/diskpulsed" ] || { echo "container_image: build $build first (scripts/build.sh)" >&2; exit 1; }

ctx=$(mktemp -d /var/tmp/diskpulse-image.XXXXXX)
trap 'rm -rf "$ctx"' EXIT

# The shared libraries diskpulsed and diskpulse link (ldd of the build),
# smartctl, the time zones TZ names (schedules run in local time), and zpool:
# OpenZFS 2.3 from bookworm-backports' contrib, the newest userland, for the
# 2.2 and 2.3 modules of TrueNAS SCALE 24.04-25.04, Unraid 7 and OMV 7
# (bookworm's own 2.1 cannot read their newer pool features;
# docs/container.md). Only zpool is taken from zfsutils-linux (its package
# would pull in perl and python3 for the other tools), with the libraries it
# links; the hooks check it runs there. Left out of the extracted packages: documentation, locales, glibc's
# character set converters (gconv) and smartd.
bpo=bookworm-backports
mmdebstrap --quiet --variant=extract --architectures="$arch" \
  --include=libc6,libgcc-s1,libstdc++6,libssl3,libsqlite3-0,zlib1g,liburing2,libmosquitto1,smartmontools,tzdata \
  --include="libzfs6linux/$bpo,libnvpair3linux/$bpo,libuutil3linux/$bpo" \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
  --dpkgopt='path-exclude=/usr/lib/x86_64-linux-gnu/gconv/*' \
  --dpkgopt='path-exclude=/usr/lib/aarch64-linux-gnu/gconv/*' \
  --extract-hook="cd '$ctx' && APT_CONFIG=\"\$MMDEBSTRAP_APT_CONFIG\" apt-get download -qq zfsutils-linux/$bpo 2>/dev/null" \
  --extract-hook="dpkg-deb --fsys-tarfile '$ctx'/zfsutils-linux_*.deb | tar -x -C \"\$1\" --wildcards '*/sbin/zpool'" \
  --extract-hook='out=$(PATH=/usr/sbin:/sbin chroot "$1" zpool version 2>&1) || true; case $out in *"error while loading"*|*"Exec format error"*) echo "zpool in the image: $out" >&2; exit 1;; esac' \
  --extract-hook='rm -rf "$1"/usr/sbin/smartd "$1"/usr/sbin/update-smart-drivedb "$1"/etc/init.d' \
  --extract-hook='printf "root:x:0:0:root:/root:/usr/sbin/nologin\ndiskpulse:x:8470:6:diskpulse:/var/lib/diskpulse:/usr/sbin/nologin\n" >"$1"/etc/passwd' \
  --extract-hook='printf "root:x:0:\ndisk:x:6:diskpulse\ndiskpulse:x:8470:\n" >"$1"/etc/group' \
  --extract-hook='mkdir -p "$1"/var/lib/diskpulse "$1"/tmp && chown 8470:6 "$1"/var/lib/diskpulse && chmod 0750 "$1"/var/lib/diskpulse && chmod 1777 "$1"/tmp' \
  bookworm "$ctx/rootfs.tar" "deb $mirror bookworm main" "deb $mirror $bpo contrib"
# apt's and dpkg's state, which mmdebstrap needs until it is done.
tar --delete --wildcards -f "$ctx/rootfs.tar" './etc/apt*' './var/lib/apt*' './var/cache/apt*' './var/lib/dpkg*'
# The zpool taken (zpool itself says its version only to a loaded module).
zfs_userland=$(dpkg-deb -f "$ctx"/zfsutils-linux_*.deb Version)

stage=$ctx/stage
DESTDIR=$stage cmake --install "$build" --prefix /usr --strip >/dev/null
rm -rf "$stage/usr/lib/systemd" "$stage/lib/systemd"
# The configuration the first start writes to an empty configuration volume
# (DISKPULSE_CONFIG_TEMPLATE); the image's /etc/diskpulse stays empty so that
# a named volume starts empty too and takes the same path.
install -D -m 0644 packaging/container/diskpulse.json "$stage/usr/share/diskpulse/container/diskpulse.json"
rm -rf "$stage/etc/diskpulse"/*
tar --numeric-owner --owner=0 --group=0 -C "$stage" -cf "$ctx/diskpulse.tar" .
cp packaging/container/Containerfile "$ctx/"

podman build --quiet --pull=never --network=none --platform "linux/$arch" --build-arg "ZFS_USERLAND=$zfs_userland" \
  -f "$ctx/Containerfile" -t "$tag" "$ctx" >/dev/null
# Podman files a short name under localhost/, which `docker load` keeps: the
# same image is also tagged as Docker names it (docker.io/library/NAME), and
# `podman save docker.io/library/NAME:TAG` gives Docker `NAME:TAG`.
case $tag in */*) ;; *) podman tag "$tag" "docker.io/library/$tag" ;; esac
echo "$tag: $(podman image inspect --format '{{.Size}}' "$tag") bytes, zpool $zfs_userland"
