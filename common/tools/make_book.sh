#!/usr/bin/env bash
# README command 1. With a GPU: configure and build everything, run the bench (which writes
# book/results/<gpu>/<part>.csv, one part after the other), then render the book: from this GPU's
# files when the bench wrote any, else from the GPU that the CMake cache variable BOOK_GPU names
# (nvidia-h200, the reference, unless set otherwise). On a GPU older than Hopper the bench leaves
# out the steps it cannot run ("not available on this GPU"); a part not benched here says "not
# measured yet"; Appendix A sets this GPU beside every other GPU in book/results/.
# Without a GPU (no nvidia-smi that lists one, no /dev/nvidia<N>), or with --no-bench, nothing is
# measured, so only the `book` target is built: the render needs no compiled program.
#   bash common/tools/make_book.sh                 bench every part (with a GPU), render
#   bash common/tools/make_book.sh --part scan     bench one part (repeatable), render
#   bash common/tools/make_book.sh --no-bench      render from the results already in book/results/
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=1
parts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-bench) bench=0 ;;
    --part) parts+=("--part" "${2:?--part needs a part name}"); shift ;;
    *) echo "make_book: unknown option $1 (valid: --part NAME, --no-bench)" >&2; exit 2 ;;
  esac
  shift
done
export PATH=/usr/local/cuda/bin:$PATH
# A GPU is likely when the driver lists one or a device node exists (/dev/dxg: WSL 2); the
# bench's own probe (gpu_info --check, after the full build) decides whether it can run.
gpu_seen=0
if { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; } ||
   compgen -G '/dev/nvidia[0-9]*' >/dev/null || [ -e /dev/dxg ]; then
  gpu_seen=1
fi
if [ $bench -eq 1 ] && [ $gpu_seen -eq 1 ]; then
  bash common/tools/configure_and_build.sh
else
  bash common/tools/ensure_deps.sh
  cmake --preset default
  if [ $bench -eq 1 ]; then
    echo "make_book: no GPU found (nvidia-smi lists none, no /dev/nvidia<N>): building only" \
         "the book, not the programs"
  fi
fi
if [ $bench -eq 1 ] && [ $gpu_seen -eq 1 ] && build/bin/gpu_info --check >/dev/null 2>&1; then
  metadata=$(build/bin/gpu_info --metadata)
  gpu=$(sed -n 's/^results_name: //p' <<<"$metadata")
  capability=$(sed -n 's/^compute_capability: //p' <<<"$metadata")
  architectures=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' build/CMakeCache.txt)
  if [ "$architectures" = "75-virtual;90" ] && [ "${capability%%.*}" -lt 9 ] 2>/dev/null; then
    # sm_90 code does not run below Hopper: the driver compiles the compute_75 PTX instead.
    echo "make_book: this GPU (compute capability $capability) runs the default build's" \
         "compute_75 PTX, the steps' portable paths as built for compute capability 7.5. To" \
         "measure a build for this GPU alone, run" \
         "'cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=native' first (build/ keeps it)."
  fi
  status=0
  python3 book/tools/bench.py --build-dir build --results-dir book/results --source-dir . \
    "${parts[@]}" || status=$?
  [ $status -eq 0 ] || echo "make_book: the bench failed for some part (see above); the book shows what was written" >&2
  if compgen -G "book/results/$gpu/*.csv" >/dev/null; then
    cmake --preset default -DBOOK_GPU="$gpu" >/dev/null
  else
    echo "make_book: the bench wrote no results for $gpu; the book shows BOOK_GPU's" >&2
  fi
elif [ $bench -eq 1 ]; then
  echo "No CUDA device here: the bench is skipped and the committed results in book/results/ are used."
fi
shown=$(sed -n 's/^BOOK_GPU:[A-Z]*=//p' build/CMakeCache.txt)
echo "make_book: rendering the book from book/results/${shown:-nvidia-h200}/"
# Renders build/book/html (fails on any broken snippet, reference, image or page check).
cmake --build --preset default --target book
index="$PWD/build/book/html/index.html"
if [ ! -f "$index" ]; then
  echo "make_book: $index was not produced" >&2
  exit 1
fi
echo "The book: $index"
