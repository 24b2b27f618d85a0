#!/usr/bin/env bash
# gpu_checks_modern.sh: GPU evidence for Part I's modern steps (reduce7, reduce8, reduce9) beyond
# the bench, written under $OUT (needs a GPU). Run from the repository root with a build in build/
# (or BUILD=dir), e.g.
#   OUT=/tmp/out bash chapters/reduction/tools/gpu_checks_modern.sh
#   OUT=/tmp/out SECTIONS="accept floor" bash chapters/reduction/tools/gpu_checks_modern.sh
# Sections (all by default; SECTIONS picks some, in this order):
#   accept    the issue's performance targets, same process, more repetitions than the bench:
#             reduce9 >= 1.00x cub::DeviceReduce::Sum and >= 0.97x the read-only yardstick at
#             2^28 (int32 and float); reduce9 >= 1.3x CUB at 2^16. reduce6..reduce8 for context.
#   floor     the launch floor: an empty kernel timed as the harness times a step (L2 flushed by a
#             memset, then events around the launch), and what a second launch or a 4-byte
#             memset before the launch adds (the alternatives reduce9's page discusses)
#   ncu       Nsight Compute: duration, DRAM throughput (% of peak), grid and registers of
#             reduce8, reduce9 and CUB's kernels at 2^28 and 2^16 (how many kernels CUB launches)
#   variants  reduce9 rebuilt with other tuning constants (BLOCK_THREADS, UNROLL, WAVES in
#             reduce8.cuh, and the load instruction), each measured against CUB at 2^28 and 2^16
# Writes:
#   $OUT/reduction_modern.txt        the summary of every section run
#   $OUT/launch_floor_row.csv        the launch floor as a results row (part "yardstick", step
#                                    "launch_floor"), for book/results/<gpu>/reduction.csv
#   $OUT/raw/                        every tool's own output
# Exit status: 0 when every section ran and every target held, 1 otherwise (the summary says why).
set -uo pipefail

build=${BUILD:-build}
out=${OUT:?set OUT to the directory for the results}
sections=${SECTIONS:-accept floor ncu variants}
mkdir -p "$out/raw"
root=$(pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
arch=${CUDA_ARCH:-90}
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
summary=$out/reduction_modern.txt
status=0
: >"$summary"
say() { echo "$@" | tee -a "$summary"; }
fail() { say "FAIL: $*"; status=1; }

say "# gpu_checks_modern.sh on $gpu, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
say "# sections: $sections"

# Runs a step program with CSV output; prints its rows (no header) on stdout.
csv_rows() {
  local program=$1
  shift
  "$build/bin/$program" --format csv "$@" 2>>"$out/raw/$program.stderr" | grep -v '^part,'
}

# Median of a column for rows matching (step, type, n) in a CSV file: awk helper.
# Columns: part,step,variant,type,n,rows,cols,bytes,reps,median_ms,min_ms,max_ms,gbps,copy_gbps,
#          read_gbps,pct_copy,pct_read,peer,peer_gbps,pct_peer,check
ratios_table() {  # file -> a table of step, type, n, time, GB/s, x read-only, x CUB
  awk -F, '{ printf "  %-8s %-6s %10s  %10.6f ms  %8.1f GB/s  %6.3fx read-only  %6.3fx CUB  %s\n",
               $2, $4, $5, $10, $13, $13 / $15, $13 / $19, $21 }' "$1"
}

# ------------------------------------------------------------------------------------------------
section_accept() {
  say
  say "## accept: the issue's targets (--reps 100, each program measures CUB and the yardsticks)"
  local rows=$out/raw/accept.csv
  : >"$rows"
  for n in '2^28' '2^16' '2^22'; do
    for step in reduce6 reduce7 reduce8 reduce9; do
      csv_rows "$step" --n "$n" --reps 100 >>"$rows" || fail "$step --n $n exited non-zero"
    done
  done
  ratios_table "$rows" | tee -a "$summary"
  grep -q ',WRONG$' "$rows" && fail "a wrong sum (see $rows)"
  # Targets: reduce9 at 2^28 >= 1.00x CUB and >= 0.97x read-only; at 2^16 >= 1.3x CUB.
  awk -F, -v big=268435456 -v small=65536 '
    $2 == "reduce9" && $5 == big {
      peer = $13 / $19; ro = $13 / $15
      printf "target reduce9 %s 2^28: %.3fx CUB (>= 1.00) %s, %.3fx read-only (>= 0.97) %s\n",
             $4, peer, (peer >= 1.00 ? "ok" : "MISSED"), ro, (ro >= 0.97 ? "ok" : "MISSED")
    }
    $2 == "reduce9" && $5 == small {
      peer = $13 / $19
      printf "target reduce9 %s 2^16: %.3fx CUB (>= 1.3) %s\n", $4, peer,
             (peer >= 1.3 ? "ok" : "MISSED")
    }' "$rows" | tee -a "$summary"
  grep -q 'MISSED' "$summary" && fail "a performance target was missed"
}

# ------------------------------------------------------------------------------------------------
section_floor() {
  say
  say "## floor: empty kernels timed like a step (L2 flushed by a memset, events around the launch)"
  local src=$out/raw/launch_floor.cu bin=$out/raw/launch_floor
  cat >"$src" <<'EOF'
// The launch floor as the harness sees it: a memset of twice the L2 (outside the timed region),
// then events around the operation, median of 101 repetitions after 5 warm-ups.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(3); } } while (0)
__global__ void empty_kernel() {}
__global__ void one_atomic(unsigned long long* counter) {
  if (threadIdx.x == 0) atomicAdd(counter, 1ull);
}
template <class Op>
void time_it(const char* name, void* flush, size_t flush_bytes, Op op) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int rep = 0; rep < 106; ++rep) {
    CHECK(cudaMemsetAsync(flush, rep & 0xFF, flush_bytes));
    CHECK(cudaEventRecord(start));
    op();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (rep >= 5) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%s,%d,%.6f,%.6f,%.6f\n", name, int(ms.size()), ms[ms.size() / 2], ms.front(),
              ms.back());
}
int main() {
  int device = 0, l2 = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  const size_t flush_bytes = 2 * size_t(l2) + (1 << 20);
  void* flush = nullptr;
  unsigned long long* counter = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMalloc(&counter, 8));
  CHECK(cudaMemset(counter, 0, 8));
  std::printf("what,reps,median_ms,min_ms,max_ms\n");
  time_it("empty kernel 1x256", flush, flush_bytes,
          [] { empty_kernel<<<1, 256>>>(); });
  time_it("empty kernel 16x256", flush, flush_bytes,
          [] { empty_kernel<<<16, 256>>>(); });
  time_it("two empty kernels 16x256 then 1x256", flush, flush_bytes, [] {
    empty_kernel<<<16, 256>>>();
    empty_kernel<<<1, 256>>>();
  });
  time_it("cudaMemsetAsync of 8 bytes then empty kernel 16x256", flush, flush_bytes, [&] {
    CHECK(cudaMemsetAsync(counter, 0, 8));
    empty_kernel<<<16, 256>>>();
  });
  time_it("one atomicAdd per block 16x256", flush, flush_bytes,
          [&] { one_atomic<<<16, 256>>>(counter); });
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return 0;
}
EOF
  if ! "$nvcc" -std=c++17 -O3 -arch=sm_$arch -o "$bin" "$src" >"$out/raw/launch_floor.build" 2>&1
  then
    fail "could not build the launch-floor probe (see raw/launch_floor.build)"
    return
  fi
  "$bin" >"$out/raw/launch_floor.csv" 2>&1 || fail "the launch-floor probe failed"
  awk -F, 'NR > 1 { printf "  %-58s median %.2f us  (min %.2f, max %.2f; %d reps)\n",
                    $1, $3 * 1000, $4 * 1000, $5 * 1000, $2 }' "$out/raw/launch_floor.csv" |
    tee -a "$summary"
  # The floor as a results row: the empty one-block kernel.
  awk -F, -v header="part,step,variant,type,n,rows,cols,bytes,reps,median_ms,min_ms,max_ms,gbps,copy_gbps,read_gbps,pct_copy,pct_read,peer,peer_gbps,pct_peer,check" '
    NR == 2 { print header; printf "yardstick,launch_floor,empty kernel,none,0,0,0,0,%d,%s,%s,%s,0.0,0.0,0.0,0.0,0.0,,0.0,0.0,ok\n", $2, $3, $4, $5 }' \
    "$out/raw/launch_floor.csv" >"$out/launch_floor_row.csv"
}

# ------------------------------------------------------------------------------------------------
section_ncu() {
  say
  say "## ncu: reduce8, reduce9 and CUB's kernels (clocks locked to base by ncu, caches flushed)"
  [ -x "$ncu" ] || command -v "$ncu" >/dev/null || { fail "ncu not found"; return; }
  local metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
  metrics+=,dram__bytes_read.sum,launch__grid_size,launch__block_size
  metrics+=,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
  for n in '2^28' '2^16'; do
    for step in reduce8 reduce9; do
      for type in int32 float; do
        local tag=${step}_${type}_${n/^/_}
        "$ncu" --csv --print-units base --metrics "$metrics" --kernel-name-base demangled \
          --kernel-name "regex:${step}::kernel|DeviceReduce" --launch-count 12 \
          "$build/bin/$step" --n "$n" --type "$type" --reps 1 --warmup 0 \
          >"$out/raw/ncu_$tag.csv" 2>"$out/raw/ncu_$tag.err" ||
          fail "ncu failed on $step --n $n --type $type (see raw/ncu_$tag.err)"
      done
    done
  done
  python3 - "$out" >>"$summary" <<'EOF' || fail "could not summarise the ncu output"
import csv, glob, io, os, re, sys
out = sys.argv[1]
print("  (one line per kernel launch profiled: the step's launches come first, then CUB's)")
print(f"  {'run':<24} {'kernel':<34} {'grid':>6} {'block':>5} {'regs':>4} {'time us':>9} "
      f"{'DRAM %peak':>10} {'DRAM MB':>8} {'warps %':>7}")
for path in sorted(glob.glob(f"{out}/raw/ncu_*.csv")):
    run = os.path.basename(path)[4:-4]
    lines = [l for l in open(path).read().splitlines() if l.startswith('"')]
    launches = {}
    for r in csv.DictReader(io.StringIO("\n".join(lines))):
        key = (r.get("ID"), r.get("Kernel Name", ""))
        try:
            v = float(r["Metric Value"].replace(",", ""))
        except (KeyError, ValueError, AttributeError):
            continue
        launches.setdefault(key, {})[r["Metric Name"]] = v
    for (ident, name), m in launches.items():
        if "DeviceReduce" in name:
            found = re.search(r"DeviceReduce\w*Kernel", name)
            short = "cub " + (found.group(0) if found else "DeviceReduce")
        else:
            short = re.sub(r"\(.*", "", name).replace("void ", "")
        print(f"  {run:<24} {short[:34]:<34} {m.get('launch__grid_size', 0):>6.0f} "
              f"{m.get('launch__block_size', 0):>5.0f} "
              f"{m.get('launch__registers_per_thread', 0):>4.0f} "
              f"{m.get('gpu__time_duration.sum', 0) / 1e3:>9.2f} "
              f"{m.get('dram__throughput.avg.pct_of_peak_sustained_elapsed', 0):>10.1f} "
              f"{m.get('dram__bytes_read.sum', 0) / 1e6:>8.1f} "
              f"{m.get('sm__warps_active.avg.pct_of_peak_sustained_active', 0):>7.1f}")
EOF
}

# ------------------------------------------------------------------------------------------------
# reduce9 with other constants: a copy of the sources with reduce8.cuh edited, linked against the
# build's common libraries. name block unroll waves load ("plain", "ldg" or "ldcs").
build_variant() {
  local name=$1 block=$2 unroll=$3 waves=$4 load=$5
  local tree=$out/raw/variant_src/$name
  rm -rf "$tree"
  mkdir -p "$tree/chapters/reduction"
  cp -r common "$tree/"
  cp -r chapters/reduction/09_reduce7 chapters/reduction/10_reduce8 chapters/reduction/11_reduce9 \
    "$tree/chapters/reduction/"
  local header=$tree/chapters/reduction/10_reduce8/reduce8.cuh
  sed -i -E "s/^constexpr int BLOCK_THREADS = [0-9]+;/constexpr int BLOCK_THREADS = $block;/;
             s/^constexpr int UNROLL = [0-9]+;/constexpr int UNROLL = $unroll;/;
             s/^constexpr int WAVES = [0-9]+;/constexpr int WAVES = $waves;/" "$header"
  case "$load" in
    ldg) sed -i -E 's/v\[u\] = vectors\[i \+ u \* threads\];/v[u] = __ldg(vectors + i + u * threads);/' "$header" ;;
    ldcs) sed -i -E 's/v\[u\] = vectors\[i \+ u \* threads\];/v[u] = __ldcs(vectors + i + u * threads);/' "$header" ;;
  esac
  grep -q "BLOCK_THREADS = $block;" "$header" && grep -q "UNROLL = $unroll;" "$header" &&
    grep -q "WAVES = $waves;" "$header" || { echo "constants not set in $header" >&2; return 1; }
  [ "$load" = plain ] || grep -q "__$load(vectors" "$header" || { echo "load not set" >&2; return 1; }
  "$nvcc" -std=c++17 -O3 -lineinfo -arch=sm_$arch -I"$tree" \
    "$tree/chapters/reduction/11_reduce9/main.cu" -o "$out/raw/reduce9_$name" \
    "$build/common/libcommon_reduction.a" "$build/common/libcommon.a" -lpthread
}

section_variants() {
  say
  say "## variants: reduce9 with other tuning constants (reduce8.cuh), --reps 50, same process as CUB"
  # name block unroll waves load
  local variants=(
    "default 256 4 1 plain"
    "u2 256 2 1 plain"
    "u8 256 8 1 plain"
    "b128_u4 128 4 1 plain"
    "b128_u8 128 8 1 plain"
    "b512_u4 512 4 1 plain"
    "b512_u2 512 2 1 plain"
    "b1024_u2 1024 2 1 plain"
    "waves2 256 4 2 plain"
    "ldg 256 4 1 ldg"
    "ldcs 256 4 1 ldcs"
  )
  local v pids=() names=()
  for v in "${variants[@]}"; do
    set -- $v
    build_variant "$@" >"$out/raw/variant_$1.build" 2>&1 &
    pids+=($!)
    names+=("$1")
  done
  local i
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "variant ${names[$i]} did not build (see raw/variant_${names[$i]}.build)"
  done
  local rows=$out/raw/variants.csv
  : >"$rows"
  for v in "${variants[@]}"; do
    set -- $v
    [ -x "$out/raw/reduce9_$1" ] || continue
    for n in '2^28' '2^16'; do
      "$out/raw/reduce9_$1" --format csv --n "$n" --reps 50 2>>"$out/raw/variants.stderr" |
        grep -v '^part,' | sed "s/^reduction,reduce9,,/reduction,reduce9,$1,/" >>"$rows" ||
        fail "variant $1 --n $n exited non-zero"
    done
  done
  awk -F, '{ printf "  %-9s %-6s %10s  %10.6f ms  %8.1f GB/s  %6.3fx read-only  %6.3fx CUB  %s\n",
               $3, $4, $5, $10, $13, $13 / $15, $13 / $19, $21 }' "$rows" | tee -a "$summary"
  grep -q ',WRONG$' "$rows" && fail "a variant computed a wrong sum"
}

for s in $sections; do
  case "$s" in
    accept | floor | ncu | variants) "section_$s" ;;
    *) fail "unknown section '$s' (accept, floor, ncu, variants)" ;;
  esac
done
rm -rf "$out/raw/variant_src"
say
say "gpu_checks_modern: status $status; summary in $summary"
exit $status
