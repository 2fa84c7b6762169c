#!/usr/bin/env bash
# scripts/release.sh, run for real on the test command's builds (its native
# BUILD_DIR and the arm64 cross build BUILD_DIR/arm64 that arm64_build made;
# DP_RELEASE_BUILD_ARCH, so nothing is compiled again), then the files it
# wrote are checked as an owner would take them:
#   1. SHA256SUMS names every file written and nothing else, and
#      `sha256sum -c` passes;
#   2. each .deb's Architecture is the one in its name, and its diskpulsed
#      is an ELF for that machine;
#   3. each image archive is a docker-archive (what Docker 20.10's
#      `docker load` reads) that `podman load` takes, tagged
#      diskpulse:VERSION, of its architecture;
#   3b. the OCI archive's index names both platforms, each of whose
#      manifest and config are in the archive, for its architecture, and
#      `podman load` takes it (as this machine's platform);
#   4. the distfile is `git archive` of HEAD under the name and folder the
#      FreeBSD port expects, and the release's distinfo matches it;
#   5. every release file name README.md and docs/packaging.md give is one
#      the release wrote, and README.md names each of them;
# and the release left this machine's podman images as they were.
#   release_test.sh SOURCE_DIR BUILD_DIR
# Exit 77 (ctest: skipped) with the reason where this box cannot: not root,
# a tool or the arm64 build missing; a failure instead under CI=true.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
. "$src/tests/support/skip.sh"
[ "$(id -u)" -eq 0 ] || skip_without root "needs root (podman, mmdebstrap)"
for t in git podman mmdebstrap cpack dpkg-deb dpkg-shlibdeps readelf sha256sum; do
  command -v "$t" >/dev/null || skip_without "$t" "$t is not installed (DP_SETUP_TEST_TOOLS=1 scripts/setup.sh)"
done
git -C "$src" rev-parse HEAD >/dev/null 2>&1 || skip_without "git checkout" "$src is not a git checkout"
[ -x "$build/arm64/service/diskpulsed" ] ||
  skip_without "arm64 build" "no $build/arm64/service/diskpulsed (ctest arm64_build makes it)"

work=$(mktemp -d /var/tmp/diskpulse-release-test.XXXXXX)
store=(--root "$work/storage" --runroot "$work/runroot" --storage-driver vfs)
cleanup() {
  podman "${store[@]}" rmi -a -f >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

version=$(sed -n 's/^project(diskpulse VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
out=$work/release
image_here() { podman image exists "docker.io/library/diskpulse:$version" && echo present || echo absent; }
before=$(image_here)
start=$(date +%s)
DP_RELEASE_ARCHES="amd64 arm64" DP_RELEASE_BUILD_amd64=$build DP_RELEASE_BUILD_arm64=$build/arm64 \
  bash "$src/scripts/release.sh" "$out"
echo "release.sh took $(($(date +%s) - start)) s"
[ "$(image_here)" = "$before" ] ||
  fail "diskpulse:$version in this machine's podman storage was $before before the release, $(image_here) after"

# 1. The checksums.
[ -s "$out/SHA256SUMS" ] || fail "no SHA256SUMS"
mapfile -t named < <(awk '{print $2}' "$out/SHA256SUMS" | sed 's/^\*//')
for f in "${named[@]}"; do [ -f "$out/$f" ] || fail "SHA256SUMS names $f, which is not there"; done
(cd "$out" && sha256sum --quiet -c SHA256SUMS) || fail "sha256sum -c SHA256SUMS"
written=$(cd "$out" && ls | grep -vx SHA256SUMS | sort)
[ "$written" = "$(printf '%s\n' "${named[@]}" | sort)" ] ||
  fail "SHA256SUMS names [${named[*]}] but the release wrote [$(echo $written)]"
expected=$(printf '%s\n' "diskpulse-$version.tar.gz" distinfo \
  "diskpulse_${version}_amd64.deb" "diskpulse_${version}_arm64.deb" \
  "diskpulse-$version-image-amd64.tar" "diskpulse-$version-image-arm64.tar" \
  "diskpulse-$version-image.oci.tar" | sort)
[ "$written" = "$expected" ] || fail "the release wrote [$(echo $written)], expected [$(echo $expected)]"
echo "SHA256SUMS: ${#named[@]} files, sha256sum -c passes"

elf_machine() { readelf -h "$1" | sed -n 's/^ *Machine: *//p'; }
declare -A machine=([amd64]="Advanced Micro Devices X86-64" [arm64]="AArch64")
for arch in amd64 arm64; do
  # 2. The package.
  deb=$out/diskpulse_${version}_$arch.deb
  [ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] ||
    fail "$(basename "$deb") says Architecture: $(dpkg-deb -f "$deb" Architecture)"
  mkdir -p "$work/deb-$arch"
  dpkg-deb -x "$deb" "$work/deb-$arch"
  for bin in usr/sbin/diskpulsed usr/bin/diskpulse; do
    [ -f "$work/deb-$arch/$bin" ] || fail "$(basename "$deb") has no /$bin"
    m=$(elf_machine "$work/deb-$arch/$bin")
    [ "$m" = "${machine[$arch]}" ] || fail "/$bin in $(basename "$deb") is for '$m', not $arch"
  done
  echo "$(basename "$deb"): Architecture $arch, diskpulsed for ${machine[$arch]}, $(stat -c %s "$deb") bytes"

  # 3. The image: a docker-archive (manifest.json), loaded into a podman
  # storage of the test's own.
  image=$out/diskpulse-$version-image-$arch.tar
  tar -xOf "$image" manifest.json >"$work/manifest.json" 2>/dev/null ||
    fail "$(basename "$image") is no docker-archive (no manifest.json)"
  grep -q "\"RepoTags\":\[\"docker.io/library/diskpulse:$version\"\]" "$work/manifest.json" ||
    fail "$(basename "$image") is not tagged diskpulse:$version: $(cat "$work/manifest.json")"
  loaded=$(podman "${store[@]}" load -q -i "$image" 2>&1) || fail "podman load -i $(basename "$image"): $loaded"
  got=$(podman "${store[@]}" image inspect --format '{{.Os}}/{{.Architecture}}' "docker.io/library/diskpulse:$version")
  [ "$got" = "linux/$arch" ] || fail "$(basename "$image") loads as $got, not linux/$arch"
  podman "${store[@]}" rmi -f "docker.io/library/diskpulse:$version" >/dev/null
  echo "$(basename "$image"): podman load gives diskpulse:$version, $got, $(stat -c %s "$image") bytes"
done

# 3b. The multi-architecture OCI archive: index.json -> the image index
# (tagged diskpulse:VERSION) -> one manifest per platform -> its config.
multi=$out/diskpulse-$version-image.oci.tar
mkdir -p "$work/oci" && tar -xf "$multi" -C "$work/oci" || fail "$(basename "$multi") is not a tar"
platforms=$(python3 - "$work/oci" "docker.io/library/diskpulse:$version" <<'PY'
import json, os, sys
root, want = sys.argv[1], sys.argv[2]
def blob(digest):
    algo, hexd = digest.split(":", 1)
    path = os.path.join(root, "blobs", algo, hexd)
    if not os.path.isfile(path):
        sys.exit(f"blob {digest} is named but not in the archive")
    return json.load(open(path))
top = json.load(open(os.path.join(root, "index.json")))
refs = [m for m in top["manifests"]
        if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == want]
if len(refs) != 1:
    sys.exit(f"index.json has no single entry named {want}: {top}")
index = blob(refs[0]["digest"])
if "manifests" not in index:
    sys.exit(f"{want} is a single image, not an index of platforms")
seen = []
for m in index["manifests"]:
    plat = m["platform"]["os"] + "/" + m["platform"]["architecture"]
    config = blob(blob(m["digest"])["config"]["digest"])
    if config["os"] + "/" + config["architecture"] != plat:
        sys.exit(f"the index says {plat}, its image's config {config['os']}/{config['architecture']}")
    seen.append(plat)
print(" ".join(sorted(seen)))
PY
) || fail "$(basename "$multi"): $platforms"
[ "$platforms" = "linux/amd64 linux/arm64" ] || fail "$(basename "$multi") holds [$platforms], not linux/amd64 linux/arm64"
loaded=$(podman "${store[@]}" load -q -i "$multi" 2>&1) || fail "podman load -i $(basename "$multi"): $loaded"
got=$(podman "${store[@]}" image inspect --format '{{.Os}}/{{.Architecture}}' "docker.io/library/diskpulse:$version")
[ "$got" = "linux/$(dpkg --print-architecture)" ] || fail "$(basename "$multi") loads as $got on $(dpkg --print-architecture)"
podman "${store[@]}" rmi -f "docker.io/library/diskpulse:$version" >/dev/null
echo "$(basename "$multi"): an index of $platforms; podman load gives $got here, $(stat -c %s "$multi") bytes"

# 4. The distfile and the port: the name the port's Makefile makes of
# PORTNAME and DISTVERSION (DISTNAME, with EXTRACT_SUFX's .tar.gz), its
# WRKSRC folder inside, and the distinfo lines `make checksum` reads.
port=$src/contrib/freebsd/sysutils/diskpulse/Makefile
make_var() { sed -n "s/^$1=[[:space:]]*//p" "$port"; }
! grep -q '^USE_GITHUB=' "$port" || fail "the port fetches GitHub's archive (USE_GITHUB), not the release's distfile"
for v in DISTNAME DISTVERSIONPREFIX DISTVERSIONSUFFIX EXTRACT_SUFX WRKSRC; do
  [ -z "$(make_var $v)" ] || fail "the port sets $v; this test derives the distfile name without it"
done
[ "$(make_var DISTVERSION)" = "$version" ] || fail "the port's DISTVERSION $(make_var DISTVERSION) is not $version"
distname=$(make_var PORTNAME)-$(make_var DISTVERSION)
distfile=$distname.tar.gz
[ -f "$out/$distfile" ] || fail "the port expects $distfile, which the release did not write"
git -C "$src" archive --format=tar --prefix="$distname/" HEAD >"$work/head.tar"
gzip -dc "$out/$distfile" | cmp -s - "$work/head.tar" || fail "$distfile is not git archive of HEAD under $distname/"
grep -qx "SHA256 ($distfile) = $(sha256sum "$out/$distfile" | cut -d' ' -f1)" "$out/distinfo" ||
  fail "distinfo has no matching SHA256 line for $distfile: $(cat "$out/distinfo")"
grep -qx "SIZE ($distfile) = $(stat -c %s "$out/$distfile")" "$out/distinfo" ||
  fail "distinfo has no matching SIZE line for $distfile"
grep -qx 'TIMESTAMP = [0-9]*' "$out/distinfo" || fail "distinfo has no TIMESTAMP"
echo "$distfile: git archive of HEAD; distinfo matches the port's name"

# 5. The documentation's file names.
release_names() { grep -o -E 'diskpulse[-_][0-9][0-9.]*[A-Za-z0-9._-]*\.(deb|tar\.gz|tar)|SHA256SUMS|\bdistinfo\b' "$@" | sort -u; }
for doc in README.md docs/packaging.md; do
  for f in $(release_names "$src/$doc"); do
    [ -f "$out/$f" ] || fail "$doc names $f, which the release does not make"
  done
done
for f in $written SHA256SUMS; do
  release_names "$src/README.md" | grep -qx "$f" || fail "README.md's install steps do not name $f"
done
echo "README.md and docs/packaging.md name exactly the release's files"
echo "ok"
