// transpose_tensor_probe (EXP, a development probe, not a step): transpose_any_shape's default
//   against whole tiles moved by the TMA unit's tensor copies, where the output rows start off
//   16-byte boundaries (rows % 4 != 0). A tensor copy moves a box of floats that may start at any
//   float of a global tensor whose rows are 16-byte multiples: each matrix is seen as lines of 4
//   rows (4 x len floats, 16 x len bytes), row r being line r / 4 from float (r % 4) x len.
//   - 'tensor stores': the default's realigned loads, transpose_fast's register transpose into a
//     dense output tile, each output row of the tile sent by one tensor store of 64 floats at its
//     own float: no shifts, no shuffles, no rows below the tile.
//   - 'tensor both': the input tile too comes by tensor loads, 128 boxes of 32 floats, swizzled
//     by the TMA unit (128-byte pattern) into lines placed so that the register transpose reads
//     them without bank conflicts; the output rows leave as 128 swizzled boxes of 32 floats.
//   Partial tiles take any_tile with chunks split at tile edges (each block stores exactly its own
//   floats, as the tensor stores do).
// Run: build/bin/transpose_tensor_probe [--reps 15] ROWSxCOLS ...
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "chapters/transpose/18_transpose_any_shape/transpose_any_shape.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"

namespace {

namespace tap = transpose_any_shape;
using tap::BLOCK_THREADS;
using tap::SLOTS;
using tap::TILE_DIM;
using tap::VEC;

constexpr int HALF = TILE_DIM / 2;  // floats per 128-byte box of 'tensor both'

// ---- host: tensor maps over lines of 4 rows ----
CUtensorMap line_map(const float* base, std::int64_t n_rows, std::int64_t len, int box,
                     bool swizzle, CUtensorMapL2promotion promotion) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (encode == nullptr) {
    cudaDriverEntryPointQueryResult found;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                                reinterpret_cast<void**>(&encode), 12000,
                                                cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess) {
      std::fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
      std::exit(1);
    }
  }
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(VEC * len), cuuint64_t(n_rows / VEC)};
  const cuuint64_t strides[1] = {cuuint64_t(VEC * len * sizeof(float))};
  const cuuint32_t box_dims[2] = {cuuint32_t(box), 1};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base),
                            dims, strides, box_dims, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            swizzle ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                            promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed (%d)\n", int(r));
    std::exit(1);
  }
  return map;
}

// ---- device: the TMA unit ----
__device__ __forceinline__ unsigned smem_at(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}
// Float `first` of row `row` of a line map's matrix (row length len): its coordinates.
__device__ __forceinline__ void line_coords(std::int64_t row, std::int64_t len, std::int64_t first,
                                            int& x, int& y) {
  x = int(row % VEC * len + first);
  y = int(row / VEC);
}
__device__ __forceinline__ void tensor_store(const CUtensorMap* map, int x, int y,
                                             const float* from) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
          map),
      "r"(x), "r"(y), "r"(smem_at(from))
      : "memory");
}
__device__ __forceinline__ void tensor_load(float* to, const CUtensorMap* map, int x, int y,
                                            std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], "
      "[%1, {%2, %3}], [%4];" ::"r"(smem_at(to)),
      "l"(map), "r"(x), "r"(y), "r"(smem_at(bar))
      : "memory");
}
__device__ __forceinline__ void bulk_commit_and_wait_read() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void proxy_fence() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void bar_init(std::uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_at(bar)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void bar_expect(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_at(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void bar_wait(std::uint64_t* bar) {
  asm volatile(
      "{\n .reg .pred done;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
      " @!done bra WAIT_%=;\n}" ::"r"(smem_at(bar))
      : "memory");
}

struct tile_place {
  std::int64_t row0, col0;
  int height, width;
};
template <bool DOWN>
__device__ __forceinline__ tile_place place(std::int64_t rows, std::int64_t cols,
                                            std::int64_t first) {
  const std::int64_t col_tile = DOWN ? first + blockIdx.y : blockIdx.x;
  const std::int64_t row_tile = DOWN ? blockIdx.x : first + blockIdx.y;
  const std::int64_t row0 = row_tile * TILE_DIM, col0 = col_tile * TILE_DIM;
  return {row0, col0, int(rows - row0 < TILE_DIM ? rows - row0 : TILE_DIM),
          int(cols - col0 < TILE_DIM ? cols - col0 : TILE_DIM)};
}

// 'tensor stores'
template <bool REALIGN_LOADS, bool DOWN, int MIN_BLOCKS>
__global__ void __launch_bounds__(BLOCK_THREADS, MIN_BLOCKS)
    kernel_tensor_stores(const __grid_constant__ CUtensorMap out_map, const float* __restrict__ in,
                         float* __restrict__ out, std::int64_t rows, std::int64_t cols,
                         std::int64_t first) {
  __shared__ __align__(128) float tile[TILE_DIM * TILE_DIM];
  __shared__ __align__(128) float out_tile[TILE_DIM * TILE_DIM];
  const tile_place p = place<DOWN>(rows, cols, first);
  if (p.height < TILE_DIM || p.width < TILE_DIM) {
    tap::any_tile<true, true, false, true>(in, out, rows, cols, p.row0, p.col0, p.height, p.width,
                                           tile);
    return;
  }
  const int t = threadIdx.x;
  tap::load_tile<REALIGN_LOADS, false, false>(in, rows, cols, p.row0, p.col0, TILE_DIM, TILE_DIM,
                                              t / SLOTS, t % SLOTS, tile);
  __syncthreads();
  const tap::block_of_thread mine = tap::block_of(t);
  const int in_row = VEC * mine.rho, in_col = VEC * mine.quad;
  const tap::transposed_block block = tap::transpose_block(tile, in_row, in_col);
#pragma unroll
  for (int f = 0; f < VEC; ++f)
    *reinterpret_cast<float4*>(&out_tile[(in_col + f) * TILE_DIM + in_row]) = block.w[f];
  proxy_fence();
  __syncwarp();
  const int lane = t % 32;
  if (lane < 8) {
    const int c = 8 * (t / 32) + lane;  // the warp's 8 output rows
    int x, y;
    line_coords(p.col0 + c, rows, p.row0, x, y);
    tensor_store(&out_map, x, y, &out_tile[c * TILE_DIM]);
    bulk_commit_and_wait_read();
  }
}

// 'tensor both': the input tile's 128-byte line of tile row r, half h, chosen so that its place
// in a 1024-byte group (the TMA unit's swizzle XORs each 16-byte chunk's index with it) is
// (r / 4) % 8, transpose_fast's swizzle; the output tile's line of output row c, half h: 2 c + h.
__device__ __forceinline__ int in_line(int r, int h) {
  return 8 * (r % VEC + VEC * h + 8 * (r / 32)) + (r / VEC) % 8;
}
__device__ __forceinline__ int in_offset(int r, int c) {
  const int h = c / HALF, j = c % HALF;
  return in_line(r, h) * HALF + ((j / VEC) ^ ((r / VEC) % 8)) * VEC + j % VEC;
}
__device__ __forceinline__ int out_offset(int c, int r) {
  const int h = r / HALF, j = r % HALF, line = 2 * c + h;
  return line * HALF + ((j / VEC) ^ (line % 8)) * VEC + j % VEC;
}

template <bool DOWN, int MIN_BLOCKS>
__global__ void __launch_bounds__(BLOCK_THREADS, MIN_BLOCKS)
    kernel_tensor_both(const __grid_constant__ CUtensorMap in_map,
                       const __grid_constant__ CUtensorMap out_map, const float* __restrict__ in,
                       float* __restrict__ out, std::int64_t rows, std::int64_t cols,
                       std::int64_t first) {
  __shared__ __align__(1024) float tile[TILE_DIM * TILE_DIM];
  __shared__ __align__(1024) float out_tile[TILE_DIM * TILE_DIM];
  __shared__ __align__(8) std::uint64_t bar;
  const tile_place p = place<DOWN>(rows, cols, first);
  if (p.height < TILE_DIM || p.width < TILE_DIM) {
    tap::any_tile<true, true, false, true>(in, out, rows, cols, p.row0, p.col0, p.height, p.width,
                                           tile);
    return;
  }
  const int t = threadIdx.x, lane = t % 32;
  if (t == 0) bar_init(&bar);
  __syncthreads();
  if (t < 32) {
    if (lane == 0) bar_expect(&bar, TILE_DIM * TILE_DIM * sizeof(float));
    __syncwarp();
#pragma unroll
    for (int k = 0; k < 2 * TILE_DIM / 32; ++k) {
      const int i = lane + 32 * k, r = i / 2, h = i % 2;
      int x, y;
      line_coords(p.row0 + r, cols, p.col0 + HALF * h, x, y);
      tensor_load(&tile[in_line(r, h) * HALF], &in_map, x, y, &bar);
    }
  }
  bar_wait(&bar);
  const tap::block_of_thread mine = tap::block_of(t);
  const int in_row = VEC * mine.rho, in_col = VEC * mine.quad;
  float4 q[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e)
    q[e] = *reinterpret_cast<const float4*>(&tile[in_offset(in_row + e, in_col)]);
  const float4 w[VEC] = {make_float4(q[0].x, q[1].x, q[2].x, q[3].x),
                         make_float4(q[0].y, q[1].y, q[2].y, q[3].y),
                         make_float4(q[0].z, q[1].z, q[2].z, q[3].z),
                         make_float4(q[0].w, q[1].w, q[2].w, q[3].w)};
#pragma unroll
  for (int f = 0; f < VEC; ++f)
    *reinterpret_cast<float4*>(&out_tile[out_offset(in_col + f, in_row)]) = w[f];
  proxy_fence();
  __syncwarp();
  if (lane < 16) {  // the warp's 8 output rows, two halves each
    const int c = 8 * (t / 32) + lane / 2, h = lane % 2;
    int x, y;
    line_coords(p.col0 + c, rows, p.row0 + HALF * h, x, y);
    tensor_store(&out_map, x, y, &out_tile[(2 * c + h) * HALF]);
    bulk_commit_and_wait_read();
  }
}

template <class Kernel, class... Maps>
void walk(Kernel k, const float* in, float* out, std::int64_t rows, std::int64_t cols, bool down,
          const Maps&... maps) {
  const std::int64_t row_tiles = (rows + TILE_DIM - 1) / TILE_DIM;
  const std::int64_t col_tiles = (cols + TILE_DIM - 1) / TILE_DIM;
  const std::int64_t step = down ? row_tiles : col_tiles, length = down ? col_tiles : row_tiles;
  for (std::int64_t first = 0; first < length; first += tap::MAX_GRID_Y) {
    const dim3 grid(unsigned(step), unsigned(std::min<std::int64_t>(length - first, tap::MAX_GRID_Y)));
    k<<<grid, BLOCK_THREADS>>>(maps..., in, out, rows, cols, first);
    CUDA_CHECK_LAUNCH();
  }
}

__global__ void fill(float* a, std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    a[i] = float(i % 16777213);
}
__global__ void count_wrong(const float* in, const float* out, std::int64_t rows,
                            std::int64_t cols, unsigned long long* wrong) {
  unsigned long long mine = 0;
  const std::int64_t n = rows * cols;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t c = i / rows, r = i % rows;  // out[i] = in[r][c]
    if (!(out[i] == in[r * cols + c])) ++mine;
  }
  if (mine) atomicAdd(wrong, mine);
}

struct variant {
  std::string name;
  std::function<void()> run;
};

}  // namespace

int main(int argc, char** argv) {
  int reps = 15;
  std::string only;  // run only the EXP variants whose name holds this
  std::vector<std::pair<std::int64_t, std::int64_t>> shapes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else {
      long long r, c;
      if (std::sscanf(argv[i], "%lldx%lld", &r, &c) != 2 || r < 128 || c < 64 ) {
        std::fprintf(stderr, "shape %s: ROWSxCOLS, rows >= 128, cols >= 64\n",
                     argv[i]);
        return 2;
      }
      shapes.push_back({r, c});
    }
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# transpose_tensor_probe on %s, %d reps per variant, alternating\n", prop.name,
              reps);
  for (const auto& shape : shapes) {
    const std::int64_t rows = shape.first, cols = shape.second;
    const std::int64_t n = rows * cols;
    common::device_buffer<float> in{std::size_t(n)}, out{std::size_t(n)};
    common::device_buffer<unsigned long long> wrong{1};
    fill<<<1024, 256>>>(in.data(), n);
    CUDA_CHECK_LAUNCH();
    const bool down = (cols + TILE_DIM - 1) / TILE_DIM > tap::SHORT_ROW_OF_TILES;
    const bool realign_loads = cols % VEC != 0;
    const CUtensorMap out64 = line_map(out.data(), cols, rows, TILE_DIM, false,
                                       CU_TENSOR_MAP_L2_PROMOTION_NONE);
    const CUtensorMap out32 =
        line_map(out.data(), cols, rows, HALF, true, CU_TENSOR_MAP_L2_PROMOTION_NONE);
    const CUtensorMap in32 =
        line_map(in.data(), rows, cols, HALF, true, CU_TENSOR_MAP_L2_PROMOTION_NONE);
    const CUtensorMap in32_256 =
        line_map(in.data(), rows, cols, HALF, true, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
    float* const o = out.data();
    const float* const i_ = in.data();
    std::vector<variant> vs;
    vs.push_back({"memcpy", [&] {
                    CUDA_CHECK(cudaMemcpyAsync(o, i_, std::size_t(n) * sizeof(float),
                                               cudaMemcpyDeviceToDevice));
                  }});
    vs.push_back({"default", [&] { tap::launch(i_, o, rows, cols); }});
    vs.push_back({"EXP tensor stores 5", [&] {
                    if (realign_loads)
                      walk(down ? kernel_tensor_stores<true, true, 5>
                                : kernel_tensor_stores<true, false, 5>,
                           i_, o, rows, cols, down, out64);
                    else
                      walk(down ? kernel_tensor_stores<false, true, 5>
                                : kernel_tensor_stores<false, false, 5>,
                           i_, o, rows, cols, down, out64);
                  }});
    vs.push_back({"EXP tensor stores 6", [&] {
                    if (realign_loads)
                      walk(down ? kernel_tensor_stores<true, true, 6>
                                : kernel_tensor_stores<true, false, 6>,
                           i_, o, rows, cols, down, out64);
                    else
                      walk(down ? kernel_tensor_stores<false, true, 6>
                                : kernel_tensor_stores<false, false, 6>,
                           i_, o, rows, cols, down, out64);
                  }});
    vs.push_back({"EXP tensor both 5", [&] {
                    walk(down ? kernel_tensor_both<true, 5> : kernel_tensor_both<false, 5>, i_, o,
                         rows, cols, down, in32, out32);
                  }});
    vs.push_back({"EXP tensor both 6", [&] {
                    walk(down ? kernel_tensor_both<true, 6> : kernel_tensor_both<false, 6>, i_, o,
                         rows, cols, down, in32, out32);
                  }});
    vs.push_back({"EXP tensor both 6 L2 256B", [&] {
                    walk(down ? kernel_tensor_both<true, 6> : kernel_tensor_both<false, 6>, i_, o,
                         rows, cols, down, in32_256, out32);
                  }});
    vs.push_back({"EXP tensor both 6 other order", [&] {
                    walk(!down ? kernel_tensor_both<true, 6> : kernel_tensor_both<false, 6>, i_, o,
                         rows, cols, !down, in32, out32);
                  }});
    if (!only.empty())
      vs.erase(std::remove_if(vs.begin() + 2, vs.end(),
                              [&](const variant& v) { return v.name.find(only) == std::string::npos; }),
               vs.end());
    // Each variant once on a poisoned output, checked; then timed alternately; checked again.
    const auto check = [&](const variant& v) {
      CUDA_CHECK(cudaMemset(o, 0xFF, std::size_t(n) * sizeof(float)));
      v.run();
      CUDA_CHECK(cudaMemset(wrong.data(), 0, sizeof(unsigned long long)));
      count_wrong<<<1024, 256>>>(i_, o, rows, cols, wrong.data());
      CUDA_CHECK_LAUNCH();
      unsigned long long w = 0;
      CUDA_CHECK(cudaMemcpy(&w, wrong.data(), sizeof w, cudaMemcpyDeviceToHost));
      return w;
    };
    std::vector<unsigned long long> wrong_before(vs.size());
    for (std::size_t k = 1; k < vs.size(); ++k) wrong_before[k] = check(vs[k]);
    std::vector<std::vector<float>> ms(vs.size());
    cudaEvent_t a, b;
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
    for (int rep = -2; rep < reps; ++rep) {
      for (std::size_t k = 0; k < vs.size(); ++k) {
        CUDA_CHECK(cudaEventRecord(a));
        vs[k].run();
        CUDA_CHECK(cudaEventRecord(b));
        CUDA_CHECK(cudaEventSynchronize(b));
        float e;
        CUDA_CHECK(cudaEventElapsedTime(&e, a, b));
        if (rep >= 0) ms[k].push_back(e);
      }
    }
    const auto median = [](std::vector<float> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    const double copy_ms = median(ms[0]), default_ms = median(ms[1]);
    for (std::size_t k = 0; k < vs.size(); ++k) {
      const double m = median(ms[k]);
      const unsigned long long w_after = k == 0 ? 0 : check(vs[k]);
      std::printf("%lld x %lld  %-32s %9.4f ms %8.1f GB/s %6.1f %%copy %6.1f %%default  %s\n",
                  static_cast<long long>(rows), static_cast<long long>(cols), vs[k].name.c_str(),
                  m, 2.0 * double(n) * sizeof(float) / m / 1e6, 100.0 * copy_ms / m,
                  100.0 * default_ms / m,
                  k == 0 ? "-"
                  : wrong_before[k] == 0 && w_after == 0
                      ? "ok"
                      : ("WRONG " + std::to_string(wrong_before[k]) + "/" +
                         std::to_string(w_after))
                            .c_str());
    }
    CUDA_CHECK(cudaEventDestroy(a));
    CUDA_CHECK(cudaEventDestroy(b));
  }
  return 0;
}
