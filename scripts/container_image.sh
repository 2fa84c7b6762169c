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
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
version=$(sed -n 's/^project(diskpulse VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
tag=${2:-diskpulse:$version}
mirror=${DP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
for tool in mmdebstrap podman; do
  command -v "$tool" >/dev/null || { echo "container_image: $tool is missing (scripts/setup.sh)" >&2; exit 1; }
done
[ -x "$build/service/diskpulsed" ] || { echo "container_image: build $build first (scripts/build.sh)" >&2; exit 1; }

ctx=$(mktemp -d /var/tmp/diskpulse-image.XXXXXX)
trap 'rm -rf "$ctx"' EXIT

# The shared libraries diskpulsed and diskpulse link (ldd of the build) and
# smartctl. Left out of the extracted packages: documentation, locales,
# glibc's character set converters (gconv) and smartd.
mmdebstrap --quiet --variant=extract \
  --include=libc6,libgcc-s1,libstdc++6,libssl3,libsqlite3-0,zlib1g,liburing2,libmosquitto1,smartmontools \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
  --dpkgopt='path-exclude=/usr/lib/x86_64-linux-gnu/gconv/*' \
  --dpkgopt='path-exclude=/usr/lib/aarch64-linux-gnu/gconv/*' \
  --customize-hook='rm -rf "$1"/usr/sbin/smartd "$1"/usr/sbin/update-smart-drivedb "$1"/etc/init.d "$1"/etc/apt "$1"/var/lib/apt "$1"/var/cache/apt "$1"/var/lib/dpkg' \
  --customize-hook='printf "root:x:0:0:root:/root:/usr/sbin/nologin\ndiskpulse:x:8470:6:diskpulse:/var/lib/diskpulse:/usr/sbin/nologin\n" >"$1"/etc/passwd' \
  --customize-hook='printf "root:x:0:\ndisk:x:6:diskpulse\ndiskpulse:x:8470:\n" >"$1"/etc/group' \
  --customize-hook='mkdir -p "$1"/var/lib/diskpulse "$1"/tmp && chown 8470:6 "$1"/var/lib/diskpulse && chmod 0750 "$1"/var/lib/diskpulse && chmod 1777 "$1"/tmp' \
  bookworm "$ctx/rootfs.tar" "$mirror"

stage=$ctx/stage
DESTDIR=$stage cmake --install "$build" --prefix /usr --strip >/dev/null
rm -rf "$stage/usr/lib/systemd" "$stage/lib/systemd"
install -m 0644 packaging/container/diskpulse.json "$stage/etc/diskpulse/diskpulse.json"
tar --numeric-owner --owner=0 --group=0 -C "$stage" -cf "$ctx/diskpulse.tar" .
cp packaging/container/Containerfile "$ctx/"

podman build --quiet --pull=never --network=none -f "$ctx/Containerfile" -t "$tag" "$ctx" >/dev/null
echo "$tag: $(podman image inspect --format '{{.Size}}' "$tag") bytes"
