#!/usr/bin/env bash
# The grader's own test on a GPU (by hand, or in the instructor's CI): grades
#   solutions/            -> full marks for every exercise (each is timed against itself)
#   exercises/            -> the untouched skeletons: zero everywhere, and the grader still finishes
#   planted faults        -> a wrong, a slow and a hanging saxpy (common/tools/plant_faults.py)
#                            lose exactly what they should
# and writes every report under OUT_DIR (default build/grader-check); exit 0 when all held.
#   bash common/tools/grader_gpu_check.sh [OUT_DIR] [--sanitize]
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/build/grader-check}
sanitize=${2:-}
mkdir -p "$out"
grade() { python3 "$repo/common/tools/grade.py" --build-dir "$repo/build/grade" "$@"; }
failed=0
expect() {  # expect <what> <python condition over the rows `g` (and `by` exercise)> <json file>
  local line rc
  line=$(python3 - "$3" <<PY
import json, sys
try:
    g = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("FAILED: $1 (no report: %s)" % e); sys.exit(1)
by = {r["exercise"]: r for r in g}
ok = bool(g) and ($2)
print(("held:   " if ok else "FAILED: ") + "$1")
sys.exit(0 if ok else 1)
PY
)
  rc=$?
  echo "$line" | tee -a "$out/summary.txt"
  [ $rc -eq 0 ] || failed=1
}

echo "== untouched skeletons: zero" | tee "$out/summary.txt"
grade --exercises "$repo/exercises" --format json > "$out/skeletons.json" 2> "$out/skeletons.log"
echo "exit $?" >> "$out/skeletons.log"
expect "every skeleton scores 0, saying not implemented" \
  'all(r["total"] == 0 and "not implemented" in r["notes"] for r in g)' "$out/skeletons.json"

echo "== planted: wrong, slow, hanging saxpy" | tee -a "$out/summary.txt"
python3 "$repo/common/tools/plant_faults.py" "$out/planted" > /dev/null
for kind in wrong slow hang; do
  args=(--exercises "$out/planted/$kind" --only saxpy --format json)
  [ "$kind" = hang ] && args+=(--timeout 20)
  grade "${args[@]}" > "$out/planted_$kind.json" 2> "$out/planted_$kind.log"
  echo "exit $?" >> "$out/planted_$kind.log"
done
expect "wrong: loses the cases that are not multiples of the block, and the speed points" \
  'by["saxpy"]["correct"] < 70 and by["saxpy"]["cases_passed"] > 0 and by["saxpy"]["speed"] == 0 and "wrong answer" in by["saxpy"]["notes"]' \
  "$out/planted_wrong.json"
expect "slow: every case passes, speed points lost" \
  'by["saxpy"]["correct"] == 70 and by["saxpy"]["speed"] < 30' "$out/planted_slow.json"
expect "hang: stopped by the time limit; only the n = 0 cases (no launch) pass; no speed points" \
  'by["saxpy"]["correct"] < 70 and by["saxpy"]["speed"] == 0 and "time-out after 20 s" in by["saxpy"]["notes"]' "$out/planted_hang.json"

echo "== solutions: full marks" | tee -a "$out/summary.txt"
# One exercise at a time, so that each report is kept even if a later one runs out of time.
for dir in "$repo"/solutions/[0-9][0-9]_*/; do
  name=$(basename "$dir"); name=${name:3}
  grade --exercises "$repo/solutions" --only "$name" --format json $sanitize \
    > "$out/solution_$name.json" 2> "$out/solution_$name.log"
  echo "exit $?" >> "$out/solution_$name.log"
  expect "solution $name scores 100" 'all(r["total"] == 100 for r in g)' \
    "$out/solution_$name.json"
done

[ $failed -eq 0 ] && echo "grader_gpu_check: all held" | tee -a "$out/summary.txt" ||
  echo "grader_gpu_check: FAILED" | tee -a "$out/summary.txt"
exit $failed
