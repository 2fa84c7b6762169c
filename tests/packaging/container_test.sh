#!/usr/bin/env bash
# The container image, built and run for real: scripts/container_image.sh
# builds it from BUILD_DIR (no registry), then
#   1. a container with a loop device passed in (--device) serves the page,
#      lists the device in /api/v1/drives and completes a `seq` run on it;
#   2. a container with no device says in /api/v1/health (discovery.access)
#      and on the page (its banner, where chromium is installed) what it
#      cannot see and how to pass it in.
# Prints the image's size and the daemon's idle memory (VmRSS) in the first.
#   container_test.sh SOURCE_DIR BUILD_DIR
# Exit 77 (ctest: skipped) with the reason where this box cannot: not root,
# podman, mmdebstrap or losetup missing, or podman unable to start any
# container here; a failure instead under CI=true (tests/support/skip.sh).
# The loop device, containers and image are removed on exit, also on failure.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
. "$src/tests/support/skip.sh"
[ "$(id -u)" -eq 0 ] || skip_without root "needs root (loop devices, rootful podman)"
for t in podman mmdebstrap losetup curl; do
  command -v "$t" >/dev/null || skip_without "$t" "$t is not installed (scripts/setup.sh installs it)"
done
[ -e /dev/loop-control ] || skip_without "loop devices" "no /dev/loop-control: loop devices cannot be made here"

tag=diskpulse-test:$$
name=diskpulse-test-$$
bare=diskpulse-test-bare-$$
work=$(mktemp -d /var/tmp/diskpulse-container-test.XXXXXX)
loop=""
loop_mode=""
cleanup() {
  podman rm -f "$name" "$bare" >/dev/null 2>&1 || true
  podman rmi -f "$tag" >/dev/null 2>&1 || true
  if [ -n "$loop" ]; then
    [ -n "$loop_mode" ] && chown "${loop_mode%% *}" "$loop" && chmod "${loop_mode##* }" "$loop"
    losetup -d "$loop" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

start=$(date +%s)
bash "$src/scripts/container_image.sh" "$build" "$tag"
echo "image built in $(($(date +%s) - start)) s"

# Options this box needs to start a container at all: the defaults, else
# runc (crun refuses hybrid cgroup v1/v2 hosts) and rlimits no higher than
# ours (podman raises nofile and nproc, which needs CAP_SYS_RESOURCE; runc
# was refused even our own nproc, 4096 threads are plenty).
run_opts=()
limit_opts=()
probe() { podman "$@" --entrypoint /usr/sbin/smartctl "$tag" --version >"$work/probe.log" 2>&1; }
if ! probe run --rm; then
  limits=(--ulimit "nofile=$(ulimit -Sn):$(ulimit -Hn)" --ulimit "nproc=4096:4096")
  if command -v runc >/dev/null && probe --runtime runc run --rm "${limits[@]}"; then
    run_opts=(--runtime runc)
    limit_opts=("${limits[@]}")
  else
    skip_without "podman containers" "podman cannot start a container here: $(tail -1 "$work/probe.log")"
  fi
fi
echo "podman ${run_opts[*]} run ${limit_opts[*]}"
echo "image size: $(podman image inspect --format '{{.Size}}' "$tag") bytes"

# A 256 MiB loop device over a sparse file, readable by the group disk (what
# udev gives disks on Debian, TrueNAS SCALE and Unraid; this box may have no
# udev). Its mode is restored before it is detached.
truncate -s 256M "$work/disk.img"
loop=$(losetup --find --show --direct-io=on "$work/disk.img")
loop_mode="$(stat -c '%u:%g %a' "$loop")"
chgrp disk "$loop"
chmod 0660 "$loop"
dev=$(basename "$loop")

port_of() { podman port "$1" 8470/tcp | sed -n '1s/.*://p'; }
wait_health() {
  for _ in $(seq 1 60); do
    if curl -sf "http://127.0.0.1:$1/api/v1/health" >"$work/health.json" 2>/dev/null &&
       grep -q '"passes":[1-9]' "$work/health.json"; then
      return 0
    fi
    sleep 0.5
  done
  echo "FAIL: no health answer with a finished discovery pass on port $1" >&2
  return 1
}
fail() { echo "FAIL: $*" >&2; podman logs "$name" 2>&1 | tail -30 >&2 || true; exit 1; }

# 1. With the device: config on a volume (read-only), database on another.
token=container-test-token
mkdir -p "$work/config" "$work/data"
chown 8470:6 "$work/data"
printf '{"listen": "0.0.0.0:8470", "database": "/var/lib/diskpulse/diskpulse.db",
 "webui_root": "/usr/share/diskpulse/webui", "api_token": "%s",
 "inventory": {"include": ["%s"]}, "schedules": []}\n' "$token" "$dev" >"$work/config/diskpulse.json"
podman "${run_opts[@]}" run -d --name "$name" "${limit_opts[@]}" --device "$loop" \
  -p 127.0.0.1::8470 -v "$work/config:/etc/diskpulse:ro" -v "$work/data:/var/lib/diskpulse" \
  "$tag" >/dev/null
port=$(port_of "$name")
wait_health "$port" || fail "daemon did not come up"
curl -sf "http://127.0.0.1:$port/" >"$work/page.html" || fail "the page did not answer"
grep -q '<title>diskpulse' "$work/page.html" || fail "the page is not diskpulse's"
curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/drives" >"$work/drives.json"
grep -q "\"dev_path\":\"$loop\"" "$work/drives.json" || fail "/api/v1/drives lacks $loop: $(cat "$work/drives.json")"
curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "{\"drive\": \"$dev\", \"test\": \"seq\", \"force\": true}" \
  "http://127.0.0.1:$port/api/v1/runs" >"$work/posted.json" || fail "POST /api/v1/runs refused"
id=$(sed -n 's/^{"id":\([0-9]*\).*/\1/p' "$work/posted.json")
[ -n "$id" ] || fail "no run id in $(cat "$work/posted.json")"
outcome=""
for _ in $(seq 1 240); do
  curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/runs/$id" >"$work/run.json" || true
  outcome=$(sed -n 's/.*"outcome":"\([a-z_]*\)".*/\1/p' "$work/run.json" 2>/dev/null || true)
  case "$outcome" in queued|running|"") sleep 0.5 ;; *) break ;; esac
done
[ "$outcome" = ok ] || fail "the seq run on $loop ended '$outcome': $(cat "$work/run.json")"
echo "seq run $id on $loop: ok"
sleep 5
pid=$(podman inspect --format '{{.State.Pid}}' "$name")
echo "idle daemon in the container: $(grep VmRSS /proc/"$pid"/status | tr -s ' ')"

# 2. No device: the health endpoint says what is missing and how to pass it.
podman "${run_opts[@]}" run -d --name "$bare" "${limit_opts[@]}" -p 127.0.0.1::8470 "$tag" >/dev/null
bport=$(port_of "$bare")
wait_health "$bport" || fail "the daemon without devices did not come up"
grep -q '"access":\["[^]]*--device' "$work/health.json" ||
  fail "/api/v1/health does not say how to pass a device in: $(cat "$work/health.json")"
echo "without devices, /api/v1/health says: $(grep -o '"access":\[[^]]*\]' "$work/health.json")"
# The page says it too (its banner, filled in by the page's script), where a
# browser is installed (scripts/test.sh installs chromium).
if command -v chromium >/dev/null; then
  timeout 60 chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 \
    --dump-dom "http://127.0.0.1:$bport/" >"$work/page-dom.html" 2>/dev/null || true
  grep -q 'diskpulsed cannot see everything.</strong> [^<]*--device' "$work/page-dom.html" ||
    fail "the page shows no banner saying how to pass a device in"
  echo "the page's banner says so too"
else
  echo "the page's banner not checked: chromium is not installed"
fi
echo "ok"
