#!/usr/bin/env bash
# sanitize.sh GPU_INFO COMPUTE_SANITIZER TOOL PROGRAM [ARGS...]
# Runs PROGRAM under compute-sanitizer --tool TOOL; fails on any reported error or hazard and on a
# wrong result. Exits 77 (CTest: Skipped) when there is no CUDA device.
set -u
gpu_info=$1 sanitizer=$2 tool=$3
shift 3
"$gpu_info" --check >/dev/null 2>&1 || exit 77
extra=()
case "$tool" in
  memcheck) extra=(--leak-check full) ;;
  racecheck) extra=(--racecheck-report hazard) ;;
esac
exec "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 "$@"
