#!/usr/bin/env bash
# skip_without (tests/support/skip.sh): without CI=true a missing capability
# is ctest's skip (77) with the reason; with CI=true it is a failure (1) that
# names the capability.
#   skip_test.sh PATH_TO_SKIP_SH
set -uo pipefail
helper=$1
bad=0
run() {  # run CI_VALUE: exit code and output of a script that lacks "loop devices"
  out=$(env -u CI ${1:+CI=$1} bash -c '. "$0"; skip_without "loop devices" "no /dev/loop-control"; echo reached' \
    "$helper" 2>&1)
  code=$?
}
expect() {  # expect CI_VALUE CODE TEXT
  run "$1"
  if [ "$code" != "$2" ] || [[ "$out" != *"$3"* ]] || [[ "$out" == *reached* ]]; then
    echo "FAIL: CI='$1': exit $code, output: $out (expected exit $2 and: $3)"
    bad=1
  else
    echo "ok: CI='$1': exit $code: $out"
  fi
}
expect "" 77 "SKIP: missing capability: loop devices: no /dev/loop-control"
expect false 77 "SKIP: missing capability: loop devices"
expect true 1 "missing capability under CI=true: loop devices: no /dev/loop-control"
exit $bad
