// kernel_few_cols and kernel_few_rows: a side of a few dozen floats (17 to 64, up to 127 where
//   the output rows are off 16-byte boundaries). The idea: each block takes a run of the long
//   side, one stretch of memory on the contiguous matrix and a piece of each long row on the
//   other, both moved as aligned 16-byte chunks through shared rows shifted by each long row's
//   alignment; with whole sectors, each block starts its output on a 32-byte sector. Limit: a
//   run's shared rows (up to 127 of them) bound the blocks per SM.
#pragma once
// Included by transpose_any_shape.cuh after its core pieces (window, load_chunk, any_tile), whose
// names it uses.

namespace transpose_any_shape {
//! [few]
// Few columns in a tall matrix, or few rows in a wide one (a side of at most FEW_SIDE floats, more
// than NARROW_SIDE): a 64 x 64 tile would be mostly empty, and the narrow kernel moves one side
// float by float. Here each block takes a run of RUN floats of the long side (plan.hpp says how
// long), which on the contiguous matrix is one stretch of memory, moved with 16-byte accesses in
// order; on the other matrix it is a piece of each of the few long rows, moved as aligned 16-byte
// chunks of that row. Shared memory holds the block's floats as one row per long row, each shifted
// by its long row's start modulo 4 floats (`lead`), so that every aligned chunk of a long row is
// an aligned float4 there too.
// kernel_few_cols: the input is the contiguous matrix (rows of at most FEW_SIDE floats back to
// back); each block writes the floats of input rows [r0 + d, r0 + RUN + d) of output row c,
// where d (0 .. 3) brings output float c * rows + r0 + d to a 16-byte boundary. So no 16-byte
// chunk is written by two blocks, and each block also loads the 3 input rows past its own. The
// first block starts every output row at its first float, the last ends it at its last: there
// the chunks the row shares with the rows beside it are written float by float. WHOLE_SECTORS
// (RUN a multiple of 8; plan.hpp says where): d (0 .. 7) brings that float to a 32-byte
// sector instead, so that no sector is written in two parts by two blocks, and each block loads
// the 7 input rows past its own.
// kernel_few_rows: the output is the contiguous matrix; each block loads the aligned chunks that
// hold its piece of each input row (the chunks at the piece's ends are read by both blocks beside
// them; only the stores must not overlap).
// Shared rows: few_pitch (geometry.hpp) floats each, 4 past a multiple of 32 (or of 8, the
// compact pitch past 96 long rows) so that neighbouring rows start in different banks. The
// float-by-float side's accesses are not to neighbouring rows but to rows 4 apart (each thread
// takes 4 floats of the contiguous side), 16 banks apart at either pitch: Nsight Compute on the
// H100 had most of those accesses' wavefronts from bank conflicts (plan.hpp's rule for 114 to 127
// rows of a large wide matrix swizzles them there).
static_assert(FEW_SIDE * few_pitch(FEW_RUN) * sizeof(float) <= 48 * 1024 && FEW_RUN % VEC == 0,
              "the few-side kernels' shared rows fit without opting in to more");
// With WHOLE_SECTORS a shared row holds up to the lead, the run and 7 rows past it, and the store
// phase reads it in whole chunks: up to run + 3 chunks (12 floats) past its start.
static_assert(few_pitch(FEW_RUN, COMPACT_PITCH_MOD) >= FEW_RUN + 3 * VEC,
              "kernel_few_cols' whole sectors fit its shared rows at either pitch");
// The lead of long row `few` (the floats its part of the block's run starts past a 16-byte
// boundary, and so where that part starts in its shared row): (few * long_side + first) % 4,
// where first, the run's first float along the long side, is a multiple of 4.
__device__ __forceinline__ int few_lead(int few, std::int64_t long_side) {
  return (few * int(long_side % VEC)) % VEC;
}

// The few-side kernels' run: RUN, or where RUN is 0 (ANY_RUN) the launch's `any_run` (a
// multiple of 4, chosen at launch: plan.hpp's one_wave_run); and its shared rows' pitch.
template <int RUN>
__device__ __forceinline__ int run_of(int any_run) {
  return RUN != ANY_RUN ? RUN : any_run;
}
template <int RUN, int PITCH_MOD>
__device__ __forceinline__ int pitch_of(int any_run) {
  if constexpr (RUN != ANY_RUN) {
    constexpr int pitch = few_pitch(RUN, PITCH_MOD);
    return pitch;
  } else {
    return few_pitch(any_run, PITCH_MOD);
  }
}

template <int RUN = FEW_RUN, int PITCH_MOD = FULL_PITCH_MOD, bool WHOLE_SECTORS = false>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel_few_cols(const float* __restrict__ in, float* __restrict__ out, std::int64_t rows,
                    int cols, int any_run) {
  static_assert(!WHOLE_SECTORS || (RUN != ANY_RUN && RUN % FLOATS_PER_SECTOR == 0),
                "whole sectors: each block's run starts on a sector of every output row's floats");
  constexpr int SECTOR = int(FLOATS_PER_SECTOR);
  constexpr int PAST = WHOLE_SECTORS ? SECTOR - 1 : BELOW;  // rows loaded past the run
  const int run = run_of<RUN>(any_run), pitch = pitch_of<RUN, PITCH_MOD>(any_run);
  extern __shared__ float4 few_smem[];
  float* const shared = reinterpret_cast<float*>(few_smem);  // [cols][pitch]
  const std::int64_t r0 = std::int64_t(blockIdx.x) * run;
  const int height = int(rows - r0 < run + PAST ? rows - r0 : run + PAST);  // rows loaded
  const int count = height * cols;
  const float* const from = in + r0 * cols;  // 16-byte aligned: r0 is a multiple of 4
  // Load phase: the input rows as one run, 4 floats per thread per pass, FEW_IN_FLIGHT passes'
  // loads issued before their floats go to shared memory.
  constexpr int STRIDE = VEC * BLOCK_THREADS;
  for (int k0 = VEC * threadIdx.x; k0 < count; k0 += FEW_IN_FLIGHT * STRIDE) {
    float4 q[FEW_IN_FLIGHT];
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int k = k0 + p * STRIDE;
      if (k + VEC <= count) {
        q[p] = __ldg(reinterpret_cast<const float4*>(from + k));
      } else {  // the matrix's last floats, or none (load_chunk's tail, in 32-bit offsets)
        q[p].x = k < count ? __ldg(from + k) : 0.0f;
        q[p].y = k + 1 < count ? __ldg(from + k + 1) : 0.0f;
        q[p].z = k + 2 < count ? __ldg(from + k + 2) : 0.0f;
        q[p].w = 0.0f;
      }
    }
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int k = k0 + p * STRIDE;
      int r = k / cols, c = k - r * cols;
#pragma unroll
      for (int i = 0; i < VEC; ++i) {
        if (k + i < count) shared[c * pitch + r + few_lead(c, rows)] = float_of(q[p], i);
        if (++c == cols) c = 0, ++r;
      }
    }
  }
  __syncthreads();
  // Store phase: each output row's aligned chunks, from the one that holds the row's first float
  // of the block (block rows r with (lead + r) % 4 == 0), `chunks` per row at most (run / 4 + 1,
  // at the first block; run / 4 + 2 with whole sectors, as lead + d is then at most 8), one chunk
  // per thread per pass: a warp's stores are consecutive chunks of one or two rows.
  const int chunks = run / VEC + (WHOLE_SECTORS ? 2 : 1);
  const std::int64_t left = rows - r0;  // rows from r0 to the matrix's end
  for (int e = threadIdx.x; e < cols * chunks; e += BLOCK_THREADS) {
    const int c = e / chunks, lead = few_lead(c, rows);
    const int d =
        WHOLE_SECTORS ? (SECTOR - c * int(rows % SECTOR) % SECTOR) % SECTOR : (VEC - lead) % VEC;
    const int first = blockIdx.x == 0 ? 0 : int(d < left ? d : left);
    const int last = int(run + d < left ? run + d : left);
    const int r = first - (lead + first) % VEC + VEC * (e - c * chunks);
    if (r >= last) continue;
    float* const to = out + std::int64_t(c) * rows + r0 + r;  // 16-byte aligned
    const float* const piece = shared + c * pitch + r + lead;
    if (r >= first && r + VEC <= last) {
      __stcs(reinterpret_cast<float4*>(to), *reinterpret_cast<const float4*>(piece));
    } else {
#pragma unroll
      for (int i = 0; i < VEC; ++i)
        if (r + i >= first && r + i < last) __stcs(to + i, piece[i]);
    }
  }
}

// SWIZZLE (kernel_few_rows for 114 to 127 rows of a large wide matrix; plan.hpp says where):
// float `at` of the shared row that starts at row_start, within the row's whole 32-float groups at
// 16-byte chunk `at / 4` XOR bits 2 .. 4 of the row `key`. Lanes 4 rows apart, which the store
// phase reads at once, then fall in different banks; 16-byte chunks stay whole.
// Swizzled, the kernel held 42 registers, 5 blocks per SM; bounded to SWIZZLED_BLOCKS_PER_SM, as
// many as the unswizzled one's 40 registers fit, it holds 40 without spilling. (0: no bound, the
// unswizzled kernel's code as before the swizzle.)
constexpr int SWIZZLE_BITS = 7 << 2;  // bits 2 .. 4: the low three bits of a 16-byte chunk index
constexpr int SWIZZLED_BLOCKS_PER_SM = 6;
__device__ __forceinline__ int few_swizzled(int row_start, int at, int key, int pitch) {
  return row_start + (at < (pitch & ~31) ? at ^ (key & SWIZZLE_BITS) : at);
}

template <int RUN = FEW_RUN, int PITCH_MOD = FULL_PITCH_MOD, bool SWIZZLE = false>
__global__ void __launch_bounds__(BLOCK_THREADS,
                                  resident_blocks(SWIZZLE ? SWIZZLED_BLOCKS_PER_SM : 0))
    kernel_few_rows(const float* __restrict__ in, float* __restrict__ out, int rows,
                    std::int64_t cols, int any_run) {
  const int run = run_of<RUN>(any_run), pitch = pitch_of<RUN, PITCH_MOD>(any_run);
  extern __shared__ float4 few_smem[];
  float* const shared = reinterpret_cast<float*>(few_smem);  // [rows][pitch]
  const std::int64_t c0 = std::int64_t(blockIdx.x) * run;
  const int width = int(cols - c0 < run ? cols - c0 : run);
  const std::int64_t n = std::int64_t(rows) * cols;
  // Load phase: each input row's piece as aligned chunks (`chunks` at most, from the one that
  // holds float c0), chunk j of row r at shared float r * pitch + 4 j: float c0 + x of the row is
  // at r * pitch + lead + x. One chunk per thread per pass, FEW_IN_FLIGHT passes' loads issued
  // before they go to shared memory.
  const int chunks = (BELOW + run + VEC - 1) / VEC;
  const int pieces = rows * chunks;
  for (int e0 = threadIdx.x; e0 < pieces; e0 += FEW_IN_FLIGHT * BLOCK_THREADS) {
    float4 q[FEW_IN_FLIGHT];
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int e = e0 + p * BLOCK_THREADS, r = e / chunks, j = VEC * (e - r * chunks);
      const int lead = few_lead(r, cols);
      const std::int64_t at = std::int64_t(r) * cols + c0 - lead + j;  // 16-byte aligned
      q[p] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (e >= pieces || j >= lead + width) continue;  // past the piece
      if (at + VEC <= n) {
        q[p] = __ldg(reinterpret_cast<const float4*>(in + at));
      } else {  // the matrix's last chunk, past the end of the allocation (load_chunk's tail)
        q[p].x = __ldg(in + at);
        if (at + 1 < n) q[p].y = __ldg(in + at + 1);
        if (at + 2 < n) q[p].z = __ldg(in + at + 2);
      }
    }
#pragma unroll
    for (int p = 0; p < FEW_IN_FLIGHT; ++p) {
      const int e = e0 + p * BLOCK_THREADS, r = e / chunks, j = VEC * (e - r * chunks);
      if (e < pieces)
        *reinterpret_cast<float4*>(SWIZZLE ? shared + few_swizzled(r * pitch, j, r, pitch)
                                           : shared + r * pitch + j) = q[p];
    }
  }
  __syncthreads();
  // Store phase: the output rows c0 .. c0 + width as one run, 4 floats per thread per pass.
  const int count = width * rows;
  float* const to = out + c0 * rows;  // 16-byte aligned: c0 is a multiple of 4
  for (int k = VEC * threadIdx.x; k < count; k += VEC * BLOCK_THREADS) {
    float v[VEC];
    int c = k / rows, r = k - c * rows;
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
      v[i] = k + i < count
                 ? shared[SWIZZLE ? few_swizzled(r * pitch, c + few_lead(r, cols), r, pitch)
                                  : r * pitch + c + few_lead(r, cols)]
                 : 0.0f;
      if (++r == rows) r = 0, ++c;
    }
    if (k + VEC <= count) {
      __stcs(reinterpret_cast<float4*>(to + k), make_float4(v[0], v[1], v[2], v[3]));
    } else {
#pragma unroll
      for (int i = 0; i < VEC; ++i)
        if (k + i < count) __stcs(to + k + i, v[i]);
    }
  }
}
//! [few]

}  // namespace transpose_any_shape
