#!/usr/bin/env bash
# The container image, built and run for real: scripts/container_image.sh
# builds it from BUILD_DIR (no registry), then under ENGINE (podman: rootful
# podman; docker: Debian's dockerd, started privately for the test):
#   1. a first start on empty configuration and data folders (bind mounts,
#      as TrueNAS SCALE, Unraid and Synology give them) with only the
#      capabilities packaging/container/compose.yaml lists (podman: every
#      other one dropped; docker: added to docker's default set, as compose
#      does) and a loop device passed in read-only: the daemon writes
#      diskpulse.json to the configuration folder, makes an API token (kept
#      0600 in the data folder) and prints it with the address; the API
#      answers that token and refuses none; the privileged helper is root
#      with CAP_SYS_RAWIO in effect (what SMART's pass-through needs), the
#      daemon itself runs as diskpulse with no capability;
#   2. the owner edits the written file to watch the loop device and
#      restarts: /api/v1/health gives smartctl's answer for the loop device
#      (run by the helper; a loop device has no SMART), the image's
#      `diskpulse smart --from-file` reads a real smartctl capture, the kept
#      token is taken back (not printed again), the drive is listed with
#      that token and a `seq` run on it completes;
#   3. (podman) a container with no device says in /api/v1/health
#      (discovery.access) and on the page what it cannot see and how to pass it.
# Prints the image's size and the daemon's idle memory (VmRSS).
#   container_test.sh SOURCE_DIR BUILD_DIR [podman|docker]
# Exit 77 (ctest: skipped) with the reason where this box cannot: not root,
# a tool missing, or the engine unable to start any container here; a
# failure instead under CI=true (tests/support/skip.sh). The loop device,
# containers, image and the private dockerd are removed on exit, also on failure.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
engine=${3:-podman}
. "$src/tests/support/skip.sh"
[ "$(id -u)" -eq 0 ] || skip_without root "needs root (loop devices, rootful podman)"
for t in podman mmdebstrap losetup curl python3 ps; do
  command -v "$t" >/dev/null || skip_without "$t" "$t is not installed (scripts/setup.sh installs it)"
done
[ -e /dev/loop-control ] || skip_without "loop devices" "no /dev/loop-control: loop devices cannot be made here"
if [ "$engine" = docker ]; then
  for t in dockerd docker containerd; do
    [ -x "/usr/sbin/$t" ] || [ -x "/usr/bin/$t" ] ||
      skip_without docker "Debian's docker.io ($t) is not installed (DP_SETUP_TEST_TOOLS=1 scripts/setup.sh)"
  done
fi

tag=diskpulse-test:$$
name=diskpulse-test-$$
bare=diskpulse-test-bare-$$
work=$(mktemp -d /var/tmp/diskpulse-container-test.XXXXXX)
loop=""
loop_mode=""
dockerd_pid=""
sock=$work/docker.sock
cleanup() {
  if [ "$engine" = docker ] && [ -n "$dockerd_pid" ]; then
    /usr/bin/docker -H "unix://$sock" rm -f "$name" >/dev/null 2>&1 || true
    /usr/bin/docker -H "unix://$sock" rmi -f "$tag" >/dev/null 2>&1 || true
    kill "$dockerd_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  podman rm -f "$name" "$bare" >/dev/null 2>&1 || true
  podman rmi -f "$tag" "docker.io/library/$tag" >/dev/null 2>&1 || true
  if [ -n "$loop" ]; then
    [ -n "$loop_mode" ] && chown "${loop_mode%% *}" "$loop" && chmod "${loop_mode##* }" "$loop"
    losetup -d "$loop" || true
  fi
  # dockerd leaves its network namespace mounted under its exec root.
  for m in $(awk -v w="$work/" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r); do
    umount -l "$m" || true
  done
  rm -rf "$work" || true
}
trap cleanup EXIT

start=$(date +%s)
bash "$src/scripts/container_image.sh" "$build" "$tag"
echo "image built in $(($(date +%s) - start)) s"

# The capabilities the documentation gives (compose.yaml's cap_add).
mapfile -t caps < <(sed -n '/^    cap_add:/,/^[^ ]/s/^      - \([A-Z_]*\)$/\1/p' "$src/packaging/container/compose.yaml")
[ "${#caps[@]}" -gt 0 ] || { echo "FAIL: no cap_add list in packaging/container/compose.yaml" >&2; exit 1; }
cap_opts=()
for c in "${caps[@]}"; do cap_opts+=(--cap-add "$c"); done
echo "capabilities from compose.yaml: ${caps[*]}"

run_opts=()
limit_opts=()
if [ "$engine" = podman ]; then
  # Options this box needs to start a container at all: the defaults, else
  # runc (crun refuses hybrid cgroup v1/v2 hosts) and rlimits no higher than
  # ours (podman raises nofile and nproc, which needs CAP_SYS_RESOURCE; runc
  # was refused even our own nproc, 4096 threads are plenty).
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
  eng() { podman "${run_opts[@]}" "$@"; }
  # Every capability but the documented ones dropped.
  cap_opts=(--cap-drop ALL "${cap_opts[@]}")
  echo "podman ${run_opts[*]} run ${limit_opts[*]} ${cap_opts[*]}"
else
  # A private dockerd (its own socket, data and exec roots). This sandbox has
  # no iptables, so docker's bridge network cannot be set up: the daemon runs
  # with --bridge=none and the containers on the host's network.
  mkdir -p "$work/docker-data" "$work/docker-exec"
  /usr/sbin/dockerd --host "unix://$sock" --data-root "$work/docker-data" --exec-root "$work/docker-exec" \
    --pidfile "$work/dockerd.pid" --iptables=false --ip6tables=false --bridge=none \
    --storage-driver=vfs >"$work/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 100); do [ -S "$sock" ] && /usr/bin/docker -H "unix://$sock" info >/dev/null 2>&1 && break; sleep 0.2; done
  /usr/bin/docker -H "unix://$sock" info >/dev/null 2>&1 ||
    skip_without "docker daemon" "dockerd does not start here: $(tail -1 "$work/dockerd.log")"
  eng() { /usr/bin/docker -H "unix://$sock" "$@"; }
  podman save "docker.io/library/$tag" | eng load >/dev/null
  # docker's default set plus the documented ones, as compose's cap_add does.
  echo "dockerd $(eng version --format '{{.Server.Version}}'), run ${cap_opts[*]}"
fi
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

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
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
fail() { echo "FAIL: $*" >&2; eng logs "$name" 2>&1 | tail -30 >&2 || true; exit 1; }
# The container's log in a file: grep -q ending a pipe early would fail the
# engine's logs command under pipefail.
logs() { eng logs "$name" >"$work/log.txt" 2>&1 || true; }
status_field() { sed -n "s/^$2:[[:space:]]*\([^[:space:]]*\).*/\1/p" "/proc/$1/status"; }
has_cap() { (( (16#$1 >> $2) & 1 )); }  # CapEff hex, capability number

# 1. First start: empty folders for configuration and data, as a NAS's app
# settings bind-mount them (root-owned, like a fresh host folder).
mkdir -p "$work/config" "$work/data"
net_opts=(-p 127.0.0.1::8470)
env_opts=(-e TZ=Europe/Berlin)
if [ "$engine" = docker ]; then
  port=$(free_port)
  net_opts=(--network host)
  env_opts+=(-e "DISKPULSE_LISTEN=0.0.0.0:$port")
fi
eng run -d --name "$name" "${limit_opts[@]}" "${cap_opts[@]}" "${net_opts[@]}" "${env_opts[@]}" \
  --device "$loop:$loop:r" -v "$work/config:/etc/diskpulse" -v "$work/data:/var/lib/diskpulse" \
  -v "$src/tests/fixtures/smartctl:/fixtures:ro" "$tag" >/dev/null
if [ "$engine" = podman ]; then port=$(podman port "$name" 8470/tcp | sed -n '1s/.*://p'); fi
token=""
for _ in $(seq 1 60); do
  logs
  token=$(sed -n '/give it this token: /{s/.*give it this token: \([0-9a-f]*\)$/\1/p;q}' "$work/log.txt")
  [ -n "$token" ] && break
  sleep 0.5
done
[ -n "$token" ] || fail "no API token in the container's log"
grep -q "open http://.*:8470/ and give it this token\|open http://.*:$port/ and give it this token" "$work/log.txt" ||
  fail "the log does not give the address with the token"
echo "first start: token taken from the log ($(grep -c 'give it this token' "$work/log.txt") line)"
[ -f "$work/config/diskpulse.json" ] || fail "no diskpulse.json written to the configuration folder"
grep -q '"user": "diskpulse"' "$work/config/diskpulse.json" || fail "the written configuration is not the image's"
[ "$(stat -c %a "$work/data/api-token")" = 600 ] || fail "api-token is not 0600"
[ "$(cat "$work/data/api-token")" = "$token" ] || fail "the kept token is not the printed one"
wait_health "$port" || fail "daemon did not come up"
curl -sf "http://127.0.0.1:$port/" >"$work/page.html" || fail "the page did not answer"
grep -q '<title>diskpulse' "$work/page.html" || fail "the page is not diskpulse's"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/drives")
[ "$code" = 401 ] || fail "reads without the token answered $code, expected 401"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/drives")
[ "$code" = 200 ] || fail "reads with the token from the log answered $code"

# Who holds what: the daemon (the container's first process) runs as
# diskpulse with no capability; its helper child is root with SYS_RAWIO (17)
# in effect. A daemon started as uid 8470 with --cap-add SYS_RAWIO has none:
# docker and podman give a process that is not root no ambient capability.
pid=$(eng inspect --format '{{.State.Pid}}' "$name")
[ "$(status_field "$pid" Uid)" = 8470 ] || fail "the daemon runs as uid $(status_field "$pid" Uid), not diskpulse (8470)"
[ "$(status_field "$pid" CapEff)" = 0000000000000000 ] || fail "the daemon holds capabilities $(status_field "$pid" CapEff)"
helper=""
for child in $(ps -o pid= --ppid "$pid"); do
  [ "$(status_field "$child" Uid)" = 0 ] && helper=$child
done
[ -n "$helper" ] || fail "no privileged helper (a root child of the daemon)"
has_cap "$(status_field "$helper" CapEff)" 17 || fail "the helper lacks CAP_SYS_RAWIO: CapEff $(status_field "$helper" CapEff)"
echo "daemon pid $pid: uid 8470, CapEff 0; helper pid $helper: uid 0, CapEff $(status_field "$helper" CapEff) (SYS_RAWIO)"
# md arrays: /proc/mdstat is not per-container; the daemon's view is the host's.
if [ -e /proc/mdstat ]; then
  cmp -s /proc/mdstat "/proc/$pid/root/proc/mdstat" || fail "the container's /proc/mdstat is not the host's"
fi
# TZ reaches the daemon, and the image has the zone (the daemon refuses a
# TZ it cannot find, so it would not have started).
tr '\0' '\n' <"/proc/$pid/environ" | grep -qx 'TZ=Europe/Berlin' || fail "TZ did not reach the daemon"
[ -f "/proc/$pid/root/usr/share/zoneinfo/Europe/Berlin" ] || fail "the image has no zone data"
[ -x "/proc/$pid/root/sbin/zpool" ] || [ -x "/proc/$pid/root/usr/sbin/zpool" ] || fail "the image has no zpool"

# 2. The owner edits the written file (from the NAS's file manager) to watch
# the loop device, and restarts the container.
python3 - "$work/config/diskpulse.json" "$dev" <<'PY'
import re, sys
path, dev = sys.argv[1], sys.argv[2]
text = open(path).read()
text = re.sub(r'"user": "diskpulse"', '"user": "diskpulse",\n  "inventory": {"include": ["%s"]},\n  "schedules": []' % dev, text)
open(path, "w").write(text)
PY
eng restart "$name" >/dev/null
if [ "$engine" = podman ]; then port=$(podman port "$name" 8470/tcp | sed -n '1s/.*://p'); fi
wait_health "$port" || fail "daemon did not come back after the restart"
# SMART: smartctl, run by the helper, reached the device and could not
# read SMART from it (a loop device has none; it refuses to guess its type,
# where a missing capability or device would read "Permission denied" or
# "No such device"), and the drive's discovery says so.
grep -q "\"path-$loop\":\"SMART: [^\"]*smartctl refused the request: $loop: Unable to detect device type\"" \
  "$work/health.json" || fail "/api/v1/health does not give smartctl's answer for $loop: $(cat "$work/health.json")"
echo "SMART on $loop: $(grep -o "\"path-$loop\":\"[^\"]*\"" "$work/health.json")"
# and the image's diskpulse reads a real capture of smartctl (a WD Red,
# tests/fixtures/SOURCES.tsv) as it reads a drive's.
eng exec "$name" /usr/bin/diskpulse smart --from-file /fixtures/ata-hdd-wd-red-WD20EFRX-nas.json --json \
  >"$work/smart.json" 2>&1 || fail "diskpulse smart --from-file in the container: $(cat "$work/smart.json")"
grep -q '"model": "WDC WD20EFRX-68EUZN0"' "$work/smart.json" && grep -q '"power_on_hours": 47657' "$work/smart.json" &&
  grep -q '"health_passed": true' "$work/smart.json" || fail "the capture read in the container gave $(head -c 600 "$work/smart.json")"
echo "SMART capture read in the container: WDC WD20EFRX-68EUZN0, 47657 hours, passed"
logs
grep -q "the one made at the first start" "$work/log.txt" || fail "the restart did not take the kept token back"
[ "$(grep -c "$token" "$work/log.txt")" = 1 ] || fail "the token was printed more than once"
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
[ "$outcome" = ok ] || fail "the seq run on $loop (passed read-only) ended '$outcome': $(cat "$work/run.json")"
echo "seq run $id on $loop (passed in read-only): ok"
sleep 5
pid=$(eng inspect --format '{{.State.Pid}}' "$name")
echo "idle daemon in the container: $(grep VmRSS /proc/"$pid"/status | tr -s ' ')"

[ "$engine" = podman ] || { echo "ok"; exit 0; }
# 3. No device: the health endpoint says what is missing and how to pass it.
podman "${run_opts[@]}" run -d --name "$bare" "${limit_opts[@]}" "${cap_opts[@]}" -p 127.0.0.1::8470 \
  -e DISKPULSE_API_TOKEN=bare-token "$tag" >/dev/null
bport=$(podman port "$bare" 8470/tcp | sed -n '1s/.*://p')
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
