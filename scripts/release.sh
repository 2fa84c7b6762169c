#!/usr/bin/env bash
# The release files, built from a clean checkout of HEAD (git archive: no
# uncommitted change, no build folder or local file gets in):
#   diskpulse-VERSION.tar.gz             the source; the FreeBSD port's distfile
#   diskpulse_VERSION_ARCH.deb           the Debian 12 package (apt install ./...)
#   diskpulse-VERSION-image-ARCH.tar     the container image, `docker load -i` / `podman load -i`
#   SHA256SUMS                           sha256sum of each (sha256sum -c SHA256SUMS)
# for ARCH in $DP_RELEASE_ARCHES (default "amd64 arm64"; arm64 is cross-built
# as scripts/arm64.sh does, which needs DP_SETUP_ARM64=1 scripts/setup.sh, and
# its image needs qemu-user-static registered with binfmt_misc).
# The images are one archive per architecture: `docker load` (Docker 20.10 on
# Synology, Unraid, TrueNAS SCALE) reads one image per archive, and both carry
# the tag diskpulse:VERSION that compose.yaml and the Unraid template name.
#   bash scripts/release.sh [OUT_DIR]     (as root; default release/)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
out=$(mkdir -p "${1:-release}" && cd "${1:-release}" && pwd)
arches=${DP_RELEASE_ARCHES:-amd64 arm64}
jobs=${JOBS:-$(nproc)}
version=$(sed -n 's/^project(diskpulse VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
for tool in git cmake cpack dpkg-shlibdeps mmdebstrap podman sha256sum; do
  command -v "$tool" >/dev/null || { echo "release: $tool is missing (DP_SETUP_TEST_TOOLS=1 scripts/setup.sh)" >&2; exit 1; }
done
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "release: the checkout has uncommitted changes; commit or stash them (the release is HEAD)" >&2
  exit 1
fi

work=$(mktemp -d /var/tmp/diskpulse-release.XXXXXX)
trap 'rm -rf "$work"' EXIT
name=diskpulse-$version
git archive --format=tar.gz --prefix="$name/" -o "$out/$name.tar.gz" HEAD
tar -xzf "$out/$name.tar.gz" -C "$work"
tree=$work/$name
files=("$name.tar.gz")

for arch in $arches; do
  build=$work/build-$arch
  case $arch in
    amd64) cross=() ;;
    arm64) cross=(-DCMAKE_TOOLCHAIN_FILE="$tree/cmake/aarch64-linux-gnu.toolchain.cmake"
                  -DCPACK_DEBIAN_PACKAGE_ARCHITECTURE=arm64) ;;
    *) echo "release: no recipe for architecture $arch (amd64, arm64)" >&2; exit 1 ;;
  esac
  echo "release: $arch: building diskpulsed and diskpulse from $(git rev-parse --short HEAD)"
  cmake -S "$tree" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cross[@]}" >/dev/null
  cmake --build "$build" -j "$jobs" --target diskpulsed diskpulse >/dev/null
  (cd "$build" && cpack -G DEB --config CPackConfig.cmake -B "$work/deb-$arch" >/dev/null)
  deb=$(find "$work/deb-$arch" -maxdepth 1 -name "diskpulse_${version}_${arch}.deb")
  [ -n "$deb" ] || { echo "release: cpack made no diskpulse_${version}_${arch}.deb" >&2; exit 1; }
  cp "$deb" "$out/"
  files+=("diskpulse_${version}_${arch}.deb")

  echo "release: $arch: the container image"
  (cd "$tree" && DP_IMAGE_ARCH=$arch bash scripts/container_image.sh "$build" "diskpulse:$version")
  rm -f "$out/$name-image-$arch.tar"
  podman save --format docker-archive -o "$out/$name-image-$arch.tar" "docker.io/library/diskpulse:$version"
  files+=("$name-image-$arch.tar")
done

(cd "$out" && sha256sum "${files[@]}" >SHA256SUMS)
echo "release: in $out:"
(cd "$out" && ls -l "${files[@]}" SHA256SUMS | awk '{print "  " $5 "  " $NF}')
