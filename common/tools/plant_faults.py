#!/usr/bin/env python3
"""plant_faults.py: writes submissions with one planted fault each, for the grader's own test.

    python3 common/tools/plant_faults.py OUT_DIR

Each OUT_DIR/<fault>/01_saxpy/saxpy.cuh is the solution with one region replaced, laid out like a
student's copy of exercises/ (common/tools/grader_gpu_check.sh grades them):

  wrong/  the grid is rounded down: the last partial block never runs   -> loses the cases whose n
                                                                           is not a multiple of
                                                                           the block, and speed
  slow/   8 blocks stride over the array whatever n is                  -> loses speed points only
  hang/   the kernel never returns                                      -> every case stopped by
                                                                           the time limit
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grade  # noqa: E402

SOLUTION = os.path.join(grade.REPO, "solutions", "01_saxpy", "saxpy.cuh")

FAULTS = {
    "wrong": {"launch": """\
  // Planted bug: rounds the grid down, so the last partial block is never launched.
  const std::int64_t blocks = n / block_threads;
  if (blocks == 0) return;
  kernel<<<unsigned(blocks), block_threads>>>(a, d_x, d_y, n);
  CUDA_CHECK_LAUNCH();"""},
    "slow": {"kernel": """\
  // Planted slowness: a tiny grid strides over the array, so few bytes are in flight.
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    y[i] = a * x[i] + y[i];""", "launch": """\
  if (n == 0) return;
  kernel<<<8, block_threads>>>(a, d_x, d_y, n);  // planted: 8 blocks, whatever n is
  CUDA_CHECK_LAUNCH();"""},
    "hang": {"kernel": """\
  // Planted hang: clock64() is volatile, so the compiler keeps this loop, which never ends.
  while (clock64() >= 0) {
  }"""},
}


def replace_region(text, name, body):
    pattern = re.compile(r"(// >>> YOUR CODE: " + re.escape(name) + r"\n)(.*?)(\n\s*// <<< YOUR CODE)",
                         re.S)
    if not pattern.search(text):
        raise SystemExit(f"plant_faults: no region {name!r} in {SOLUTION}")
    return pattern.sub(lambda m: m.group(1) + body + m.group(3), text, count=1)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    with open(SOLUTION) as f:
        solution = f.read()
    for fault, regions in FAULTS.items():
        text = solution
        for name, body in regions.items():
            text = replace_region(text, name, body)
        folder = os.path.join(sys.argv[1], fault, "01_saxpy")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "saxpy.cuh"), "w") as f:
            f.write(text)
        print(f"plant_faults: {folder}/saxpy.cuh")


if __name__ == "__main__":
    main()
