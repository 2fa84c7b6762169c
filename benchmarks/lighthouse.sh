#!/usr/bin/env bash
# Lighthouse's mobile performance and accessibility scores of the demo's
# overview and one drive page: figures to read beside the page tests'
# budgets (PageBrowserTest.PhonePageStaysLight), not a test.
#
#   bash benchmarks/lighthouse.sh [DISKPULSED]     # WEEKS=30 DRIVE=sdb RUNS=1
#
# WEBUI=DIR serves another copy of the page (say an older commit's webui/,
# to compare before and after in the same period); REPORTS=DIR keeps each
# run's full Lighthouse JSON there (long-tasks, bootup-time, ...).
#
# Starts `diskpulsed --demo` on a free loopback port with its database in a
# temporary folder, runs Lighthouse (npm's, installed once into
# LIGHTHOUSE_DIR, default ~/.cache/diskpulse-lighthouse) with Debian's
# chromium in its default mobile preset (390-ish px phone, 4x CPU slowdown,
# simulated slow 4G), and prints one line per page and run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
daemon=${1:-$root/build/service/diskpulsed}
weeks=${WEEKS:-30}
drive=${DRIVE:-sdb}
runs=${RUNS:-1}
webui=${WEBUI:-$root/webui}
reports=${REPORTS:-}
tools=${LIGHTHOUSE_DIR:-$HOME/.cache/diskpulse-lighthouse}
chromium=${CHROME_PATH:-$(command -v chromium || true)}
[ -x "$daemon" ] || { echo "lighthouse.sh: no daemon at $daemon (build it first)" >&2; exit 2; }
[ -n "$chromium" ] || { echo "lighthouse.sh: chromium is not installed (scripts/setup.sh, DP_SETUP_BROWSER=1)" >&2; exit 2; }
if [ ! -x "$tools/node_modules/.bin/lighthouse" ]; then
  echo "lighthouse.sh: installing lighthouse (npm) into $tools" >&2
  npm install --prefix "$tools" --no-fund --no-audit --loglevel=error lighthouse@12 >&2
fi

work=$(mktemp -d)
pid=
cleanup() {
  # Stopped as its owner stops it, the demo removes its own database.
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# Stand-ins for /sys, /dev, udev and /proc, and no tools: the demo never
# looks at this machine's drives.
mkdir -p "$work"/host/{sys,dev,udev,proc} "$work/var"
none="$work/host/no-such-tool"
cat > "$work/diskpulse.json" <<JSON
{"listen": "127.0.0.1:0", "database": "$work/var/diskpulse.db", "pidfile": "$work/var/diskpulsed.pid",
 "webui_root": "$webui", "log_level": "warning",
 "inventory": {"sysfs_root": "$work/host/sys", "dev_root": "$work/host/dev",
               "udev_data_dir": "$work/host/udev", "proc_root": "$work/host/proc"},
 "tools": {"smartctl": "$none", "zpool": "$none", "geom": "$none", "diskinfo": "$none", "camcontrol": "$none"},
 "schedules": []}
JSON
"$daemon" -c "$work/diskpulse.json" --foreground --demo --demo-weeks "$weeks" > "$work/log" 2>&1 &
pid=$!
url=
for _ in $(seq 1 600); do
  url=$(grep -o 'listening on http://127\.0\.0\.1:[0-9]*/' "$work/log" | head -1 | sed 's/listening on //' || true)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; exit 1; }
  sleep 1
done
[ -n "$url" ] || { echo "lighthouse.sh: the demo did not start in 10 min" >&2; exit 1; }
echo "demo: $weeks weeks at $url; load $(cut -d' ' -f1-3 /proc/loadavg)"

for page in "" "#drive=$drive"; do
  for run in $(seq 1 "$runs"); do
    CHROME_PATH="$chromium" "$tools/node_modules/.bin/lighthouse" "$url$page" --quiet \
      --only-categories=performance,accessibility --output=json --output-path="$work/report.json" \
      --chrome-flags="--headless --no-sandbox --disable-gpu" >/dev/null 2>"$work/lh.err" ||
      { cat "$work/lh.err" >&2; exit 1; }
    node -e '
      const r = require(process.argv[1]); const a = r.audits; const c = r.categories;
      const n = (id) => (a[id] && a[id].numericValue !== undefined ? Math.round(a[id].numericValue) : "?");
      console.log(`${process.argv[2].padEnd(14)} run ${process.argv[3]}: performance ${Math.round(c.performance.score * 100)}` +
        `, accessibility ${Math.round(c.accessibility.score * 100)}; TBT ${n("total-blocking-time")} ms,` +
        ` LCP ${n("largest-contentful-paint")} ms, CLS ${a["cumulative-layout-shift"].numericValue.toFixed(4)},` +
        ` elements ${n("dom-size")}, ${Math.round(a["total-byte-weight"].numericValue / 1024)} KiB`);
    ' "$work/report.json" "${page:-overview}" "$run"
    if [ -n "$reports" ]; then
      mkdir -p "$reports"; name=overview; [ -z "$page" ] || name="drive-$drive"
      cp "$work/report.json" "$reports/$name-$run.json"
    fi
  done
done
