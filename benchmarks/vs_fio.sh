#!/usr/bin/env bash
# Accuracy and cost of `diskpulse bench` against fio, the reference tool, on the
# same loop device. Not a test: a benchmark that prints figures.
#   - seq 1 MiB QD8 MB/s, random 4 KiB QD32 IOPS (io_uring), random 4 KiB QD1
#     IOPS with diskpulse's pread engine against fio's psync, and random 4 KiB
#     QD32 with JOBS threads (diskpulse --jobs N against fio --numjobs=N
#     --group_reporting): diskpulse / fio (target >= 0.97);
#   - CPU per I/O for both (user+system seconds of the process / reads the
#     device counted; target: diskpulse <= fio);
#   - a kernel-throttled device (cgroup v1 blkio read_bps_device /
#     read_iops_device, diskpulse run inside the cgroup): measured / throttle
#     (target within +-3%);
#   - 10 repeated runs on the throttled device: coefficient of variation (<= 2%).
# fio and diskpulse run alternately, ROUNDS times each; medians are reported.
# Needs root, fio, losetup, python3; cgroup v1 blkio for the throttle part. Usage:
#   benchmarks/vs_fio.sh [path/to/diskpulse]    (default: $BUILD_DIR/service/diskpulse)
# Environment: SIZE_MIB (1024), SECONDS_PER_RUN (5), ROUNDS (3), FILL (1: write
# real data into the backing file so reads reach it; 0: sparse), DIR (/var/tmp;
# DIR=/dev/shm for a RAM-backed device, where the engines' own cost is the
# limit), JOBS (2), THROTTLE (1: also the cgroup part), BPS_CAP (50000000),
# IOPS_CAP (2000), CV_RUNS (10), WRAP (a command both tools run under, e.g.
# WRAP="chrt -f 1": on a host busy with other work the scheduler's wake-up
# delays, not the engines, decide the small-read figures).
set -euo pipefail
cd "$(dirname "$0")/.."
DP=${1:-${BUILD_DIR:-build}/service/diskpulse}
SIZE_MIB=${SIZE_MIB:-1024}
SECS=${SECONDS_PER_RUN:-5}
ROUNDS=${ROUNDS:-3}
FILL=${FILL:-1}
BPS_CAP=${BPS_CAP:-50000000}
IOPS_CAP=${IOPS_CAP:-2000}
CV_RUNS=${CV_RUNS:-10}
DIR=${DIR:-/var/tmp}
JOBS=${JOBS:-2}
THROTTLE=${THROTTLE:-1}
WRAP=${WRAP:-}
BLKIO=/sys/fs/cgroup/blkio

[ "$(id -u)" -eq 0 ] || { echo "vs_fio: needs root (loop devices, cgroups)" >&2; exit 2; }
command -v fio >/dev/null || { echo "vs_fio: fio not installed (DP_SETUP_TEST_TOOLS=1 bash scripts/setup.sh)" >&2; exit 2; }
[ -x "$DP" ] || { echo "vs_fio: no diskpulse binary at $DP (build first)" >&2; exit 2; }
if [ "$THROTTLE" = 1 ] && [ ! -e $BLKIO/blkio.throttle.read_bps_device ]; then
  echo "vs_fio: no cgroup v1 blkio at $BLKIO (THROTTLE=0 skips that part)" >&2; exit 2
fi

IMG=$(mktemp "$DIR/diskpulse-vsfio-XXXXXX.img")
LOOP=""
CG="$BLKIO/diskpulse-vsfio-$$"
cleanup() {
  if [ -d "$CG" ]; then
    for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do echo "$p" > $BLKIO/cgroup.procs || true; done
    rmdir "$CG" 2>/dev/null || true
  fi
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
  rm -f "$IMG"
}
trap cleanup EXIT INT TERM

if [ "$FILL" = 1 ]; then
  echo "vs_fio: writing ${SIZE_MIB} MiB of data to $IMG ..." >&2
  dd if=/dev/urandom of="$IMG" bs=1M count="$SIZE_MIB" status=none conv=fsync
else
  truncate -s "${SIZE_MIB}M" "$IMG"
fi
LOOP=$(losetup --direct-io=on --find --show "$IMG")
NAME=$(basename "$LOOP")
MAJMIN=$(cat /sys/block/$NAME/dev)
echo "vs_fio: $LOOP ($MAJMIN) over $IMG, ${SIZE_MIB} MiB, ${SECS}s per run, $ROUNDS rounds; load: $(uptime)" >&2

read_stat() { awk '{print $1, $3}' /sys/block/$NAME/stat; }

# run_timed OUTFILE CMD... : runs CMD, prints "cpu_seconds bytes_read reads"
# (bytes and reads from the device's counters).
run_timed() {
  local out=$1; shift
  local s0 s1 t
  s0=$(read_stat)
  t=$( { TIMEFORMAT='%U %S'; time $WRAP "$@" > "$out" 2>/dev/null; } 2>&1 | tail -1 )
  s1=$(read_stat)
  awk -v t="$t" -v a="$s0" -v b="$s1" 'BEGIN{split(t,x," "); split(a,p," "); split(b,q," ");
    printf "%.4f %d %d\n", x[1]+x[2], (q[2]-p[2])*512, q[1]-p[1]}'
}
# us of CPU per read
per_io() { awk -v c="$1" -v n="$2" 'BEGIN{printf "%.3f", (n > 0 ? c * 1e6 / n : 0)}'; }
FIO_RAND=(fio --name=vs --filename="$LOOP" --readonly --direct=1 --rw=randread --bs=4k \
  --group_reporting --time_based --runtime="$SECS" --ramp_time=0.5 --norandommap --randrepeat=1 \
  --output-format=json)

# jget FILE EXPR: evaluates EXPR over the JSON document d.
jget() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2 }'; }

declare -a FIO_SEQ DP_SEQ FIO_RND DP_RND FIO_SEQ_CPU DP_SEQ_CPU FIO_RND_CPU DP_RND_CPU
declare -a FIO_Q1 DP_Q1 FIO_Q1_CPU DP_Q1_CPU FIO_J DP_J FIO_J_CPU DP_J_CPU
TMP=$(mktemp -d)
for r in $(seq 1 "$ROUNDS"); do
  # --- seq 1 MiB QD8
  read cpu bytes ios < <(run_timed "$TMP/fio.json" fio --name=vs --filename="$LOOP" --readonly --direct=1 \
      --ioengine=io_uring --rw=read --bs=1M --iodepth=8 --time_based --runtime="$SECS" \
      --ramp_time=0.5 --output-format=json)
  FIO_SEQ+=("$(jget "$TMP/fio.json" 'd["jobs"][0]["read"]["bw_bytes"]/1e6')")
  FIO_SEQ_CPU+=("$(awk -v c="$cpu" -v b="$bytes" 'BEGIN{print c/(b/1073741824)}')")
  read cpu bytes ios < <(run_timed "$TMP/dp.json" "$DP" bench "$LOOP" --test seq --seconds "$SECS" --json)
  DP_SEQ+=("$(jget "$TMP/dp.json" 'd["results"][0]["mb_per_s"]')")
  DP_SEQ_CPU+=("$(awk -v c="$cpu" -v b="$bytes" 'BEGIN{print c/(b/1073741824)}')")
  # --- random 4 KiB QD32, io_uring
  read cpu bytes ios < <(run_timed "$TMP/fio.json" "${FIO_RAND[@]}" --ioengine=io_uring --iodepth=32 --numjobs=1)
  FIO_RND+=("$(jget "$TMP/fio.json" 'd["jobs"][0]["read"]["iops"]')")
  FIO_RND_CPU+=("$(per_io "$cpu" "$ios")")
  read cpu bytes ios < <(run_timed "$TMP/dp.json" "$DP" bench "$LOOP" --test random --qd 32 --engine uring --seconds "$SECS" --json)
  DP_RND+=("$(jget "$TMP/dp.json" 'd["results"][0]["iops"]')")
  DP_RND_CPU+=("$(per_io "$cpu" "$ios")")
  # --- random 4 KiB QD1: the pread engine against fio's psync
  read cpu bytes ios < <(run_timed "$TMP/fio.json" "${FIO_RAND[@]}" --ioengine=psync --iodepth=1 --numjobs=1)
  FIO_Q1+=("$(jget "$TMP/fio.json" 'd["jobs"][0]["read"]["iops"]')")
  FIO_Q1_CPU+=("$(per_io "$cpu" "$ios")")
  read cpu bytes ios < <(run_timed "$TMP/dp.json" "$DP" bench "$LOOP" --test random --qd 1 --engine pread --seconds "$SECS" --json)
  DP_Q1+=("$(jget "$TMP/dp.json" 'd["results"][0]["iops"]')")
  DP_Q1_CPU+=("$(per_io "$cpu" "$ios")")
  # --- random 4 KiB QD32 with JOBS submitting threads
  read cpu bytes ios < <(run_timed "$TMP/fio.json" "${FIO_RAND[@]}" --ioengine=io_uring --iodepth=32 --numjobs="$JOBS")
  FIO_J+=("$(jget "$TMP/fio.json" 'd["jobs"][0]["read"]["iops"]')")
  FIO_J_CPU+=("$(per_io "$cpu" "$ios")")
  read cpu bytes ios < <(run_timed "$TMP/dp.json" "$DP" bench "$LOOP" --test random --qd 32 --engine uring --jobs "$JOBS" --seconds "$SECS" --json)
  DP_J+=("$(jget "$TMP/dp.json" 'd["results"][0]["iops"]')")
  DP_J_CPU+=("$(per_io "$cpu" "$ios")")
  echo "vs_fio: round $r: seq fio ${FIO_SEQ[-1]} dp ${DP_SEQ[-1]} MB/s; rnd4k q32 fio ${FIO_RND[-1]} dp ${DP_RND[-1]};" \
       "q1 psync ${FIO_Q1[-1]} pread ${DP_Q1[-1]}; q32 x$JOBS jobs fio ${FIO_J[-1]} dp ${DP_J[-1]} IOPS" >&2
done

m() { printf '%s\n' "$@" | median; }
FS=$(m "${FIO_SEQ[@]}"); DS=$(m "${DP_SEQ[@]}")
FR=$(m "${FIO_RND[@]}"); DR=$(m "${DP_RND[@]}")
FSC=$(m "${FIO_SEQ_CPU[@]}"); DSC=$(m "${DP_SEQ_CPU[@]}")
FRC=$(m "${FIO_RND_CPU[@]}"); DRC=$(m "${DP_RND_CPU[@]}")
F1=$(m "${FIO_Q1[@]}"); D1=$(m "${DP_Q1[@]}"); F1C=$(m "${FIO_Q1_CPU[@]}"); D1C=$(m "${DP_Q1_CPU[@]}")
FJ=$(m "${FIO_J[@]}"); DJ=$(m "${DP_J[@]}"); FJC=$(m "${FIO_J_CPU[@]}"); DJC=$(m "${DP_J_CPU[@]}")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", a/b}'; }

echo
echo "diskpulse vs fio on $LOOP (${SIZE_MIB} MiB in $DIR, fill=$FILL, ${SECS}s runs, median of $ROUNDS)"
echo "load at the end: $(uptime)"
printf '%-34s %14s %14s %8s\n' "" "fio" "diskpulse" "ratio"
printf '%-34s %14.1f %14.1f %8s\n' "seq 1M QD8 MB/s" "$FS" "$DS" "$(ratio "$DS" "$FS")"
printf '%-34s %14.0f %14.0f %8s\n' "rand 4K QD32 IOPS (io_uring)" "$FR" "$DR" "$(ratio "$DR" "$FR")"
printf '%-34s %14.0f %14.0f %8s\n' "rand 4K QD1 IOPS (psync / pread)" "$F1" "$D1" "$(ratio "$D1" "$F1")"
printf '%-34s %14.0f %14.0f %8s\n' "rand 4K QD32 x$JOBS jobs IOPS" "$FJ" "$DJ" "$(ratio "$DJ" "$FJ")"
printf '%-34s %14.3f %14.3f %8s\n' "seq CPU s/GiB" "$FSC" "$DSC" "$(ratio "$DSC" "$FSC")"
printf '%-34s %14.3f %14.3f %8s\n' "rand 4K QD32 CPU us/read" "$FRC" "$DRC" "$(ratio "$DRC" "$FRC")"
printf '%-34s %14.3f %14.3f %8s\n' "rand 4K QD1 CPU us/read" "$F1C" "$D1C" "$(ratio "$D1C" "$F1C")"
printf '%-34s %14.3f %14.3f %8s\n' "rand 4K QD32 x$JOBS CPU us/read" "$FJC" "$DJC" "$(ratio "$DJC" "$FJC")"
[ "$THROTTLE" = 1 ] || { rm -rf "$TMP"; exit 0; }

# --- throttled device: diskpulse inside the cgroup
mkdir "$CG"
in_cgroup() { sh -c 'echo $$ > "$0/cgroup.procs" && shift && exec "$@"' "$CG" _ "$@"; }
echo "$MAJMIN $BPS_CAP" > "$CG/blkio.throttle.read_bps_device"
in_cgroup "$DP" bench "$LOOP" --test seq --seconds "$SECS" --json > "$TMP/bps.json"
BPS_MEAS=$(jget "$TMP/bps.json" 'str(d["results"][0]["mb_per_s"]*1e6) + " " + d["engine"]')
in_cgroup fio --name=vs --filename="$LOOP" --readonly --direct=1 --ioengine=io_uring --rw=read --bs=1M \
    --iodepth=8 --time_based --runtime="$SECS" --ramp_time=0.5 --output-format=json > "$TMP/fbps.json" 2>/dev/null
FIO_BPS_URING=$(jget "$TMP/fbps.json" 'd["jobs"][0]["read"]["bw_bytes"]')
BPS_CV=()
for i in $(seq 1 "$CV_RUNS"); do
  in_cgroup "$DP" bench "$LOOP" --test seq --seconds 2 --json > "$TMP/cv.json"
  BPS_CV+=("$(jget "$TMP/cv.json" 'd["results"][0]["mb_per_s"]')")
done
echo "$MAJMIN 0" > "$CG/blkio.throttle.read_bps_device"

echo "$MAJMIN $IOPS_CAP" > "$CG/blkio.throttle.read_iops_device"
IOPS_MEAS=""
for eng in uring pread; do
  in_cgroup "$DP" bench "$LOOP" --test random --qd 8 --engine "$eng" --seconds "$SECS" --json > "$TMP/iops.json"
  IOPS_MEAS+="$(jget "$TMP/iops.json" 'd["results"][0]["iops"]') "
done
IOPS_CV=()
for i in $(seq 1 "$CV_RUNS"); do
  in_cgroup "$DP" bench "$LOOP" --test random --qd 8 --seconds 2 --json > "$TMP/cv.json"
  IOPS_CV+=("$(jget "$TMP/cv.json" 'd["results"][0]["iops"]')")
done
echo "$MAJMIN 0" > "$CG/blkio.throttle.read_iops_device"
rm -rf "$TMP"

cv() { printf '%s\n' "$@" | awk '{s+=$1; q+=$1*$1; n++} END{m=s/n; sd=sqrt((q-n*m*m)/(n-1)); printf "%.2f%% (mean %.2f, n=%d)", 100*sd/m, m, n}'; }

echo
read BPS_VAL BPS_ENGINE <<< "$BPS_MEAS"
read IOPS_URING IOPS_PREAD <<< "$IOPS_MEAS"
echo "throttled (cgroup v1 blkio, diskpulse inside the cgroup):"
printf '  read_bps %d B/s: diskpulse seq (engine auto -> %s) %.0f B/s = %s x cap; fio io_uring %.0f B/s = %s x cap\n' \
  "$BPS_CAP" "$BPS_ENGINE" "$BPS_VAL" "$(ratio "$BPS_VAL" "$BPS_CAP")" "$FIO_BPS_URING" "$(ratio "$FIO_BPS_URING" "$BPS_CAP")"
printf '  read_iops %d: diskpulse rand QD8 uring %.1f = %s x cap; pread %.1f = %s x cap\n' \
  "$IOPS_CAP" "$IOPS_URING" "$(ratio "$IOPS_URING" "$IOPS_CAP")" "$IOPS_PREAD" "$(ratio "$IOPS_PREAD" "$IOPS_CAP")"
echo "  CV of $CV_RUNS runs, seq MB/s under read_bps: $(cv "${BPS_CV[@]}")"
echo "  CV of $CV_RUNS runs, rand IOPS under read_iops: $(cv "${IOPS_CV[@]}")"
