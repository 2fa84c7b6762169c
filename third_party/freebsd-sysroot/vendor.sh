#!/usr/bin/env bash
# Re-creates usr/include here from a full FreeBSD usr/include: only the headers
# that the FreeBSD compile check's builds read (their compilers' dependency
# files), each with the symbolic link it was reached by.
#   vendor.sh FULL_SYSROOT CHECK_WORK_DIR...
# where FULL_SYSROOT/usr/include is the whole tree (its symbolic links as
# links) and each CHECK_WORK_DIR is one of tests/freebsd/compile_check.sh's,
# run with DP_FREEBSD_SYSROOT=FULL_SYSROOT (the check and its --self-test).
# Local changes (README.md's "Changes") must be applied again afterwards.
set -euo pipefail
full=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
list=$(mktemp)
for w in "$@"; do
  find "$w" \( -name '*.d' -o -name compiler_depend.make -o -name depend.make \) -print0 |
    xargs -0 cat | tr ' \\' '\n\n' | sed -n "s|^$full/usr/include/||p"
done | sed 's|:$||' | sort -u >"$list"
rm -rf "$here/usr"
while read -r h; do
  # The header, and every symbolic link on the way to its file.
  p=$(realpath -ms --relative-to="$full/usr/include" "$full/usr/include/$h")
  while :; do
    mkdir -p "$here/usr/include/$(dirname "$p")"
    if [ -L "$full/usr/include/$p" ]; then
      t=$(readlink "$full/usr/include/$p")
      ln -sfn "$t" "$here/usr/include/$p"
      p=$(realpath -m --relative-to="$full/usr/include" "$full/usr/include/$(dirname "$p")/$t")
    else
      cp "$full/usr/include/$p" "$here/usr/include/$p"
      break
    fi
  done
done <"$list"
echo "vendored $(wc -l <"$list") headers into $here/usr/include"
rm -f "$list"
