#!/usr/bin/env bash
# sanitize.sh [--expect-hazards] GPU_INFO COMPUTE_SANITIZER TOOL PROGRAM [ARGS...]
# Runs PROGRAM under compute-sanitizer --tool TOOL; fails on any reported error or hazard and on a
# wrong result. With --expect-hazards (a deliberately racy step) the opposite, and narrowly:
# passes only when the sanitizer itself reports a hazard (its error exit code and a "hazard" line),
# not when the program fails for another reason. Exits 77 (CTest: Skipped) without a CUDA device,
# and when the program says its idea is not available on this GPU (its exit 78).
set -u
expect_hazards=0
if [ "${1:-}" = "--expect-hazards" ]; then
  expect_hazards=1
  shift
fi
gpu_info=$1 sanitizer=$2 tool=$3
shift 3
"$gpu_info" --check >/dev/null 2>&1 || exit 77
extra=()
case "$tool" in
  memcheck) extra=(--leak-check full) ;;
  racecheck) extra=(--racecheck-report hazard) ;;
esac
if [ $expect_hazards -eq 0 ]; then
  "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 "$@"
  status=$?
  if [ $status -eq 78 ]; then
    echo "sanitize: not available on this GPU, skipped"
    exit 77
  fi
  exit $status
fi
output=$("$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 "$@" 2>&1)
status=$?
printf '%s\n' "$output" | tail -n 40
if [ $status -eq 99 ] && printf '%s\n' "$output" | grep -q "hazard"; then
  echo "sanitize: hazards reported, as expected for this deliberately racy step"
  exit 0
fi
echo "sanitize: expected reported hazards (exit 99 and a hazard line), got exit $status"
exit 1
