#!/usr/bin/env bash
# README command 1: configure and build everything, run the bench when a GPU is present (which
# rewrites book/results/<gpu>.csv), then render the book from the results in book/results/.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash common/tools/configure_and_build.sh
export PATH=/usr/local/cuda/bin:$PATH
if build/bin/gpu_info --check >/dev/null 2>&1; then
  cmake --build --preset default --target bench
else
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
