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
expect() {  # expect <name> <python condition over the list of rows `g`> <json file>
  if python3 - "$3" <<PY
import json, sys
g = json.load(open(sys.argv[1]))
by = {r["exercise"]: r for r in g}
ok = bool(g) and ($2)
print(("held:  " if ok else "FAILED:") + " $1")
sys.exit(0 if ok else 1)
PY
  then :; else failed=1; fi
}

echo "== solutions: full marks" | tee "$out/summary.txt"
grade --exercises "$repo/solutions" --format json $sanitize > "$out/solutions.json" 2> "$out/solutions.log"
echo "exit $?" >> "$out/solutions.log"
expect "every solution scores 100" 'all(r["total"] == 100 for r in g)' "$out/solutions.json" | tee -a "$out/summary.txt"

echo "== untouched skeletons: zero" | tee -a "$out/summary.txt"
grade --exercises "$repo/exercises" --format json > "$out/skeletons.json" 2> "$out/skeletons.log"
echo "exit $?" >> "$out/skeletons.log"
expect "every skeleton scores 0, saying not implemented" \
  'all(r["total"] == 0 and "not implemented" in r["notes"] for r in g)' "$out/skeletons.json" | tee -a "$out/summary.txt"

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
  "$out/planted_wrong.json" | tee -a "$out/summary.txt"
expect "slow: every case passes, speed points lost" \
  'by["saxpy"]["correct"] == 70 and by["saxpy"]["speed"] < 30' "$out/planted_slow.json" | tee -a "$out/summary.txt"
expect "hang: stopped by the time limit; only the n = 0 cases (no launch) pass; no speed points" \
  'by["saxpy"]["correct"] < 70 and by["saxpy"]["speed"] == 0 and "time-out after 20 s" in by["saxpy"]["notes"]' "$out/planted_hang.json" | tee -a "$out/summary.txt"

[ $failed -eq 0 ] && echo "grader_gpu_check: all held" | tee -a "$out/summary.txt" ||
  echo "grader_gpu_check: FAILED" | tee -a "$out/summary.txt"
exit $failed
