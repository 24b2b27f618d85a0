#!/usr/bin/env bash
# GPU evidence for Part IV's pages, written under $OUT (default: build/gpu_checks):
#   sieve_shared_racecheck.txt  racecheck on sieve_shared's plain-store strikes (the listing's
#                               "who writes the same word at once") and on the atomic fix.
# Run from the repository root after building: bash chapters/sieve/gpu_checks.sh [build dir]
set -u
build=${1:-build}
out=${OUT:-build/gpu_checks}
mkdir -p "$out"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  echo "# compute-sanitizer racecheck, sieve_shared at n = 20000 (3 tiles), $(date -u +%F)"
  for variant in plain_stores atomic; do
    echo
    echo "## --variant $variant"
    "$sanitizer" --tool racecheck --racecheck-report hazard --print-limit 4 \
      "$build/bin/sieve_shared" --variant "$variant" --n 20000 --reps 1 --warmup 0 2>&1 |
      grep -E "RACECHECK SUMMARY|hazard|Error|check " | head -12
  done
} >"$out/sieve_shared_racecheck.txt"
cat "$out/sieve_shared_racecheck.txt"
