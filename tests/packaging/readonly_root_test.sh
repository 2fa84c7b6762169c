#!/usr/bin/env bash
# An appliance's read-only root: the daemon installed to a prefix, that prefix
# (binaries, web page, configuration) bind-mounted read-only in a private
# mount namespace, the database on a separate data folder. Requires that the
# daemon starts, answers /api/v1/health with the database ok and serves the
# page, and that the only files it wrote are the database with its WAL,
# shared-memory index and lock, and the pidfile.
#   readonly_root_test.sh BUILD_DIR
# Exit 77 (ctest: skipped) with the reason without root or unshare; a failure
# instead under CI=true (tests/support/skip.sh).
set -euo pipefail
build=$(cd "$1" && pwd)
. "$(dirname "$0")/../support/skip.sh"
[ "$(id -u)" -eq 0 ] || skip_without root "needs root (a mount namespace with a read-only bind mount)"
command -v unshare >/dev/null || skip_without unshare "unshare (util-linux) is missing"

work=$(mktemp -d /var/tmp/diskpulse-readonly-root.XXXXXX)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  for _ in $(seq 1 50); do [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && sleep 0.1; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; cat "$work/out.log" >&2 || true; exit 1; }

prefix=$work/usr
cmake --install "$build" --prefix "$prefix" >/dev/null
mkdir -p "$work/data" "$work/run"
cat >"$prefix/etc/diskpulse/diskpulse.json" <<EOF
{"listen": "127.0.0.1:0", "database": "$work/data/diskpulse.db",
 "webui_root": "$prefix/share/diskpulse/webui", "pidfile": "$work/run/diskpulsed.pid",
 "schedules": []}
EOF

: >"$work/out.log"
# The prefix read-only only for the daemon (its own mount namespace); the
# write probe proves the mount is read-only before the daemon starts.
unshare --mount --propagation private bash -c '
  mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 1
  if touch "$1/probe" 2>/dev/null; then echo "prefix is writable"; exit 1; fi
  exec "$1/sbin/diskpulsed" -c "$1/etc/diskpulse/diskpulse.json" --foreground' _ "$prefix" \
  >"$work/out.log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's|^diskpulsed: listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/out.log")
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || fail "diskpulsed exited"
  sleep 0.1
done
[ -n "$port" ] || fail "diskpulsed did not start listening"
curl -sf "http://127.0.0.1:$port/api/v1/health" >"$work/health.json" || fail "no health answer"
grep -q '"db":"ok"' "$work/health.json" || fail "database not ok: $(cat "$work/health.json")"
grep -q '"status":"ok"' "$work/health.json" || fail "health not ok: $(cat "$work/health.json")"
curl -sf "http://127.0.0.1:$port/" >"$work/page.html" || fail "the page did not answer"
grep -q '<title>diskpulse' "$work/page.html" || fail "the page is not diskpulse's"
# A discovery pass and retention have run (they write), then the files.
for _ in $(seq 1 50); do
  curl -sf "http://127.0.0.1:$port/api/v1/health" >"$work/health.json" || true
  grep -q '"passes":[1-9]' "$work/health.json" && break
  sleep 0.2
done
written=$(cd "$work" && find data run -type f | sort | tr '\n' ' ')
expected="data/diskpulse.db data/diskpulse.db-shm data/diskpulse.db-wal data/diskpulse.db.lock run/diskpulsed.pid "
[ "$written" = "$expected" ] || fail "files written: '$written', expected '$expected'"
if grep -Ei 'read-only file system|error' "$work/out.log"; then
  fail "the log reports errors on the read-only prefix"
fi
echo "ok: read-only prefix; files written: $written"
