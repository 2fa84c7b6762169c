#!/usr/bin/env bash
# The daemon at rest: RSS and CPU of an idle diskpulsed with DRIVES loop
# devices configured as targets (default 24), over DURATION seconds (default
# 600), after SETTLE seconds for start-up discovery (default 20). Not a test:
# prints figures. Targets: RSS <= 8 MiB, CPU <= 0.1%.
# Needs root and losetup (the loop devices are sparse files in DIR, detached
# and removed at the end). Usage:
#   benchmarks/idle_footprint.sh [path/to/diskpulsed]   (default: $BUILD_DIR/service/diskpulsed)
# Environment: DRIVES (24), DURATION (600), SETTLE (20), DIR (/var/tmp),
# SCHEDULES (default: the built-in schedules; none: "schedules": []).
set -euo pipefail
cd "$(dirname "$0")/.."
DAEMON=${1:-${BUILD_DIR:-build}/service/diskpulsed}
DRIVES=${DRIVES:-24}
DURATION=${DURATION:-600}
SETTLE=${SETTLE:-20}
DIR=${DIR:-/var/tmp}
SCHEDULES=${SCHEDULES:-default}

[ "$(id -u)" -eq 0 ] || { echo "idle_footprint: needs root (loop devices)" >&2; exit 2; }
[ -x "$DAEMON" ] || { echo "idle_footprint: no diskpulsed at $DAEMON (build first)" >&2; exit 2; }

WORK=$(mktemp -d "$DIR/diskpulse-idle-XXXXXX")
LOOPS=()
PID=""
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true
  for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

targets=""
for i in $(seq 1 "$DRIVES"); do
  truncate -s 64M "$WORK/d$i.img"
  l=$(losetup --find --show "$WORK/d$i.img")
  LOOPS+=("$l")
  targets+="${targets:+, }{\"path\": \"$l\", \"name\": \"drive$i\"}"
done
PORT=$(( 20000 + RANDOM % 20000 ))
sched=""
[ "$SCHEDULES" = none ] && sched='"schedules": [],'
cat > "$WORK/diskpulse.json" <<JSON
{
  "listen": "127.0.0.1:$PORT",
  "database": "$WORK/diskpulse.db",
  "webui_root": "$PWD/webui",
  $sched
  "targets": [$targets]
}
JSON
"$DAEMON" -c "$WORK/diskpulse.json" --foreground > "$WORK/out.log" 2>&1 &
PID=$!
for _ in $(seq 1 100); do grep -q "listening on" "$WORK/out.log" 2>/dev/null && break; sleep 0.2; done
grep -q "listening on" "$WORK/out.log" || { echo "idle_footprint: daemon did not start:" >&2; cat "$WORK/out.log" >&2; exit 1; }
curl -s "http://127.0.0.1:$PORT/api/v1/drives" > /dev/null || true
sleep "$SETTLE"

ticks() { awk '{print $14 + $15}' /proc/$PID/stat; }
field() { awk -v k="$1:" '$1 == k {print $2}' /proc/$PID/status; }
HZ=$(getconf CLK_TCK)
t0=$(ticks); s0=$(date +%s.%N)
rss0=$(field VmRSS)
max_rss=$rss0
end=$(( $(date +%s) + DURATION ))
while [ "$(date +%s)" -lt "$end" ]; do
  sleep 5
  r=$(field VmRSS); [ "$r" -gt "$max_rss" ] && max_rss=$r
done
t1=$(ticks); s1=$(date +%s.%N)
rss1=$(field VmRSS)

echo "diskpulsed idle with $DRIVES loop devices configured ($(basename "$DAEMON"), schedules: $SCHEDULES)"
echo "load: $(uptime)"
awk -v a="$t0" -v b="$t1" -v hz="$HZ" -v s="$s0" -v e="$s1" 'BEGIN{
  printf "  CPU over %.0f s: %.3f s = %.4f%%\n", e - s, (b - a) / hz, 100 * (b - a) / hz / (e - s) }'
echo "  RSS after settle ${rss0} KiB, at the end ${rss1} KiB, highest sampled ${max_rss} KiB; VmHWM $(field VmHWM) KiB"
echo "  threads $(field Threads); $(grep -E '^(Rss|Pss|Anonymous|Private_Dirty)' /proc/$PID/smaps_rollup | awk '{printf "%s %s KiB  ", $1, $2}')"
echo "  largest mappings by RSS (KiB):"
awk '/^[0-9a-f]+-[0-9a-f]+ / {name = ($6 == "" ? "[anon]" : $6)} /^Rss:/ {rss[name] += $2}
     END {for (n in rss) if (rss[n] > 0) printf "    %6d  %s\n", rss[n], n}' /proc/$PID/smaps | sort -rn | head -12
