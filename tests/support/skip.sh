# Sourced by the shell tests: skip_without CAPABILITY REASON... ends the
# script with ctest's skip code (77) and the reason, as a GoogleTest skip
# does; where CI=true (the test command sets it) the machine is meant to have
# every capability, so it fails instead (exit 1), naming the capability.
# CI=false, or CI unset, keeps the skip. The GoogleTest counterpart is
# DP_SKIP_WITHOUT (tests/support/capability.h).
skip_without() {
  local capability=$1
  shift
  if [ "${CI:-}" = true ]; then
    echo "FAIL: missing capability under CI=true: $capability: $* (a CI machine must have it; CI=false lets this skip)" >&2
    exit 1
  fi
  echo "SKIP: missing capability: $capability: $*"
  exit 77
}
