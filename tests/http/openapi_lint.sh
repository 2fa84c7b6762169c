#!/usr/bin/env bash
# Lints the OpenAPI document with Redocly's recommended rules (redocly.yaml);
# the CLI is installed into ./node_modules by scripts/setup.sh. Offline: no
# telemetry, no update check.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
redocly="$root/node_modules/.bin/redocly"
if [ ! -x "$redocly" ]; then
  echo "openapi_lint: $redocly is missing; run: DP_SETUP_TEST_TOOLS=1 bash scripts/setup.sh (scripts/test.sh does)" >&2
  exit 1
fi
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
exec "$redocly" lint --config "$root/redocly.yaml" --format stylish "${1:-$root/service/src/http/openapi.json}"
