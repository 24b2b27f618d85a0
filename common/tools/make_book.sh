#!/usr/bin/env bash
# README command 1: configure and build everything, run the bench when a GPU is present (which
# writes book/results/<gpu>/<part>.csv, one part after the other), then render the book: from this
# GPU's files when it was benched here, else from the reference GPU's (BOOK_GPU, nvidia-h200).
#   bash common/tools/make_book.sh                 bench every part (with a GPU), render
#   bash common/tools/make_book.sh --part scan     bench one part (repeatable), render
#   bash common/tools/make_book.sh --no-bench      render from the committed results only
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
bash common/tools/configure_and_build.sh
export PATH=/usr/local/cuda/bin:$PATH
if [ $bench -eq 1 ] && build/bin/gpu_info --check >/dev/null 2>&1; then
  gpu=$(build/bin/gpu_info --metadata | sed -n 's/^results_name: //p')
  status=0
  python3 book/tools/bench.py --build-dir build --results-dir book/results --source-dir . \
    "${parts[@]}" || status=$?
  [ $status -eq 0 ] || echo "make_book: the bench failed for some part (see above); the book shows what was written" >&2
  cmake --preset default -DBOOK_GPU="$gpu" >/dev/null
  echo "make_book: rendering the book from book/results/$gpu/"
elif [ $bench -eq 1 ]; then
  echo "No CUDA device here: the bench is skipped and the committed results in book/results/ are used."
fi
# Renders build/book/html (fails on any broken snippet, reference, image or page check).
cmake --build --preset default --target book
index="$PWD/build/book/html/index.html"
if [ ! -f "$index" ]; then
  echo "make_book: $index was not produced" >&2
  exit 1
fi
echo "The book: $index"
