#!/usr/bin/env bash
# Installs what is missing, builds, and runs diskpulsed in the foreground on the
# embedded default: config/diskpulse.json, ./var/diskpulse.db, 127.0.0.1:8470.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh --target diskpulsed diskpulse
mkdir -p var
exec ./build/service/diskpulsed -c config/diskpulse.json --foreground "$@"
