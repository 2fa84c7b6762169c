#!/usr/bin/env bash
# The release files, built from a clean checkout of HEAD (git archive: no
# uncommitted change, no build folder or local file gets in):
#   diskpulse-VERSION.tar.gz             the source; the FreeBSD port's distfile
#   distinfo                             the port's distinfo for that distfile
#                                        (contrib/freebsd/sysutils/diskpulse/)
#   diskpulse_VERSION_ARCH.deb           the Debian 12 package (apt install ./...)
#   diskpulse-VERSION-image-ARCH.tar     the container image, `docker load -i` / `podman load -i`
#   diskpulse-VERSION-image.oci.tar      both architectures in one OCI archive (an
#                                        image index), for a registry or `podman load`
#   SHA256SUMS                           sha256sum of each (sha256sum -c SHA256SUMS)
# for ARCH in $DP_RELEASE_ARCHES (default "amd64 arm64"; arm64 is cross-built
# as scripts/arm64.sh does, which needs DP_SETUP_ARM64=1 scripts/setup.sh, and
# its image needs qemu-user-static registered with binfmt_misc).
# Each image is a docker-archive of its own architecture, because Debian 12's
# docker.io (20.10, as on Synology, Unraid and TrueNAS SCALE) refuses an OCI
# archive with an index of two platforms ("open .../blobs/json: no such
# file"). The multi-architecture OCI archive is written as well, for
# `skopeo copy --all oci-archive:FILE docker://REGISTRY/diskpulse:VERSION`
# and for engines that read an index (`podman load` keeps the host's
# platform of it). All carry the tag diskpulse:VERSION that compose.yaml and
# the Unraid template name.
# DP_RELEASE_BUILD_amd64=DIR / DP_RELEASE_BUILD_arm64=DIR take that
# architecture's .deb and image from an existing build of this checkout
# instead of building one (the test of this script does, with the test
# command's builds; the checkout may then be dirty, the distfile is still HEAD).
#   bash scripts/release.sh [OUT_DIR]     (as root; default release/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mkdir -p "${1:-release}" && cd "${1:-release}" && pwd)
arches=${DP_RELEASE_ARCHES:-amd64 arm64}
jobs=${JOBS:-$(nproc)}
version=$(sed -n 's/^project(diskpulse VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
for tool in git cmake cpack dpkg-shlibdeps mmdebstrap podman sha256sum; do
  command -v "$tool" >/dev/null || { echo "release: $tool is missing (DP_SETUP_TEST_TOOLS=1 scripts/setup.sh)" >&2; exit 1; }
done
prebuilt_any=""
for arch in $arches; do
  var=DP_RELEASE_BUILD_$arch
  [ -n "${!var:-}" ] && prebuilt_any=1
done
if [ -z "$prebuilt_any" ] && [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "release: the checkout has uncommitted changes; commit or stash them (the release is HEAD)" >&2
  exit 1
fi

work=$(mktemp -d /var/tmp/diskpulse-release.XXXXXX)
trap 'rm -rf "$work"' EXIT
name=diskpulse-$version
git archive --format=tar.gz --prefix="$name/" -o "$out/$name.tar.gz" HEAD
# The port fetches this archive (its DISTNAME, PORTNAME-DISTVERSION, is $name)
# and checks it against this distinfo; copy it beside the port's Makefile.
{
  echo "TIMESTAMP = $(git log -1 --format=%ct HEAD)"
  echo "SHA256 ($name.tar.gz) = $(sha256sum "$out/$name.tar.gz" | cut -d' ' -f1)"
  echo "SIZE ($name.tar.gz) = $(stat -c %s "$out/$name.tar.gz")"
} >"$out/distinfo"
files=("$name.tar.gz" distinfo)
# Images are built and saved in a podman storage of the release's own (they
# are FROM scratch: there is no cached layer to reuse), so that the release
# neither replaces nor leaves behind an image of this machine: the last
# architecture's would otherwise answer `podman run diskpulse:VERSION` here.
export CONTAINERS_STORAGE_CONF=$work/storage.conf
printf '[storage]\ndriver = "vfs"\ngraphroot = "%s"\nrunroot = "%s"\n' "$work/storage" "$work/run" \
  >"$CONTAINERS_STORAGE_CONF"

for arch in $arches; do
  case $arch in
    amd64|arm64) ;;
    *) echo "release: no recipe for architecture $arch (amd64, arm64)" >&2; exit 1 ;;
  esac
  var=DP_RELEASE_BUILD_$arch
  if [ -n "${!var:-}" ]; then
    build=$(cd "${!var}" && pwd)
    tree=$(pwd)
    [ -x "$build/service/diskpulsed" ] && [ -f "$build/CPackConfig.cmake" ] ||
      { echo "release: $var=$build has no built service/diskpulsed or CPackConfig.cmake" >&2; exit 1; }
    echo "release: $arch: the .deb and image from the build in $build"
  else
    [ -d "$work/$name" ] || tar -xzf "$out/$name.tar.gz" -C "$work"
    tree=$work/$name
    build=$work/build-$arch
    cross=()
    [ "$arch" = amd64 ] || cross=(-DCMAKE_TOOLCHAIN_FILE="$tree/cmake/aarch64-linux-gnu.toolchain.cmake")
    echo "release: $arch: building diskpulsed and diskpulse from $(git rev-parse --short HEAD)"
    # A unity build compiles the two programs in about half the time.
    cmake -S "$tree" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDP_UNITY=ON -DDP_BUILD_TESTS=OFF \
      "${cross[@]}" >/dev/null
    cmake --build "$build" -j "$jobs" --target diskpulsed diskpulse >/dev/null
  fi
  (cd "$build" && cpack -G DEB --config CPackConfig.cmake -B "$work/deb-$arch" >/dev/null)
  deb="$work/deb-$arch/diskpulse_${version}_${arch}.deb"
  [ -f "$deb" ] || { echo "release: cpack made no diskpulse_${version}_${arch}.deb" >&2; exit 1; }
  cp "$deb" "$out/"
  echo "release: $arch: $(basename "$deb") at ${SECONDS} s"
  files+=("diskpulse_${version}_${arch}.deb")

  echo "release: $arch: the container image"
  (cd "$tree" && DP_IMAGE_ARCH=$arch bash scripts/container_image.sh "$build" "diskpulse:$version")
  rm -f "$out/$name-image-$arch.tar"
  podman save --format docker-archive -o "$out/$name-image-$arch.tar" "docker.io/library/diskpulse:$version"
  # Kept under a name of its architecture for the multi-architecture archive.
  podman tag "docker.io/library/diskpulse:$version" "localhost/diskpulse-release:$arch"
  podman rmi "diskpulse:$version" "docker.io/library/diskpulse:$version" >/dev/null
  echo "release: $arch: $name-image-$arch.tar at ${SECONDS} s"
  files+=("$name-image-$arch.tar")
done

set -- $arches
if [ $# -gt 1 ]; then
  multi=$name-image.oci.tar
  rm -f "$out/$multi"
  podman manifest create "localhost/diskpulse-release:index" >/dev/null
  for arch in $arches; do
    podman manifest add "localhost/diskpulse-release:index" "containers-storage:localhost/diskpulse-release:$arch" >/dev/null
  done
  podman manifest push -q --all "localhost/diskpulse-release:index" \
    "oci-archive:$out/$multi:docker.io/library/diskpulse:$version"
  echo "release: $multi ($arches) at ${SECONDS} s"
  files+=("$multi")
fi

(cd "$out" && sha256sum "${files[@]}" >SHA256SUMS)
echo "release: in $out, after ${SECONDS} s:"
(cd "$out" && ls -l "${files[@]}" SHA256SUMS | awk '{print "  " $5 "  " $NF}')
