#!/usr/bin/env bash
# The handout test: make the students' tarball, unpack it, check that no solution file, no grading
# data, no solution's code and no working answer (a filled-in skeleton, a script that writes one)
# is inside, and that the check catches each of them; then configure it, build common/ (the
# harness and the parts' rooms) and every exercise's skeleton program, and run common's unit
# tests and each skeleton with --help.
#   bash common/tools/tests/handout_test.sh <repository> <scratch directory>
set -euo pipefail
repo=$(cd "$1" && pwd)
work=$2
rm -rf "$work" && mkdir -p "$work"
export PATH=/usr/local/cuda/bin:$PATH

python3 "$repo/common/tools/make_handout.py" --source-dir "$repo" --out "$work/handout.tar.gz"
tar -xzf "$work/handout.tar.gz" -C "$work"
root="$work/cuda-optimization-book-handout"
[ -d "$root" ] || { echo "handout_test: no $root in the tarball"; exit 1; }
if [ -e "$root/solutions" ]; then echo "handout_test: solutions/ is in the handout"; exit 1; fi
if find "$root" -name grading.json | grep -q .; then
  echo "handout_test: a grading.json is in the handout"; exit 1
fi
if find "$root" -name plant_faults.py | grep -q .; then
  echo "handout_test: the fault planter (which writes working answers) is in the handout"; exit 1
fi
# The same leak check, run on what was unpacked (the bodies come from the repository): no
# solution's code, every skeleton region still a TODO, no script holding kernel code.
python3 "$repo/common/tools/make_handout.py" --source-dir "$repo" --verify "$root"
# ... and it catches each kind of leak (so that its pass above means something).
leak() {  # leak <what> <file in the handout> <content source>
  local dir=$work/leak
  rm -rf "$dir" && mkdir -p "$dir/$(dirname "$2")" && cp "$3" "$dir/$2"
  if python3 "$repo/common/tools/make_handout.py" --source-dir "$repo" --verify "$dir" \
      > /dev/null 2>&1; then
    echo "handout_test: the leak check missed $1"; exit 1
  fi
}
leak "a filled-in skeleton" exercises/01_saxpy/saxpy.cuh "$repo/solutions/01_saxpy/saxpy.cuh"
leak "a grading.json" exercises/01_saxpy/grading.json "$repo/solutions/01_saxpy/grading.json"
leak "a fault planter" common/tools/plant_faults.py "$repo/solutions/grader-check/plant_faults.py"
grep -q "## Exercises" "$root/README.md" || { echo "handout_test: README has no Exercises section"; exit 1; }

cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" 2>&1 ||
  { tail -30 "$work/configure.log"; exit 1; }
targets=(common/all)
for dir in "$root"/exercises/[0-9][0-9]_*/; do
  name=$(basename "$dir"); targets+=("exercise_${name:3}")
done
cmake --build "$root/build" -j"$(nproc)" --target "${targets[@]}" > "$work/build.log" 2>&1 ||
  { grep -m5 -A3 "error" "$work/build.log"; exit 1; }
ctest --test-dir "$root/build" -L unit -R '^common\.' --output-on-failure | tail -3
for t in "${targets[@]:1}"; do  # the exercise programs
  "$root/build/bin/$t" --help > /dev/null || { echo "handout_test: $t --help failed"; exit 1; }
done
echo "handout_test: ok (${#targets[@]} targets built from the handout, no solution inside)"
