// any_tile: one tile of any size (up to 64 x 64, a few rows and columns more where it takes the
//   matrix's thin last rows or columns), at any alignment: the load phase (load_tile), the
//   register transpose, and whichever store phase the kernel's options ask for (whole chunks,
//   aligned stores, bulk copies, whole sectors, split chunks). transpose_any_shape.cuh shows the
//   pieces it is built from.
#pragma once
// Included by transpose_any_shape.cuh after its core pieces (window, load_chunk, any_tile), whose
// names it uses.

namespace transpose_any_shape {
//! [any_tile]

// Any tile of any matrix: tile rows [0, height) x tile columns [0, width), both in [1, 64] (more
// where the tile takes the matrix's last rows or columns too: below), at any alignment.
// REALIGN_LOADS: cols is not a multiple of 4 (input rows start anywhere); REALIGN_STORES: rows is
// not (output rows do). With both false it is the guarded form of whole_tile for the partial tiles
// at the matrix's edges. BULK (whole tiles only; with REALIGN_STORES, only those whose 3 rows below
// are inside the matrix): the output leaves through bulk copies from out_tile, transpose_fast's
// bulk_store or, for realigned rows, whole chunks'. SPLIT_CHUNKS (the --sweep's 'chunks split at
// tile edges'): realigned output rows store the floats of the chunks at the tile's upper and lower
// edges one by one, each block its own part, instead of each chunk whole; the tile then needs no
// rows below it (`tile` holds 64 rows, else 68). WHOLE_CHUNKS: height and width up to 67 (the last
// 1 .. 3 rows or columns taken by the tile above or beside them); `extra` holds tile columns 64 ..
// 67 of tile rows 0 .. 67, 4 floats per row. THIN_ALIGNED (aligned output rows; false in the
// --sweep's 'thin aligned edges in tiles of their own'): height up to 72 and width up to 67,
// `extra` laid out as below. WIDE_FETCH (aligned output rows only): load_chunk's. LOAD_GROUP:
// load_tile's GROUP (kernel_loads_in_halves takes half of LOADS). WHOLE_SECTORS (aligned output
// rows stored from registers, rows % 8 == 4, a tile of 64 rows or the last one): every 32-byte
// sector of the output that the tile's floats touch is written by one block. An output row that
// starts 16 bytes past a sector boundary shares the sector of its first chunk with the last chunk
// of the tile above: the block above stores that chunk (below the first row of tiles), and this
// block stores tile rows 64 .. 67, the first chunk of the tile below, beside its last one;
// `tile` then holds 68 rows.
template <bool REALIGN_LOADS, bool REALIGN_STORES, bool BULK = false, bool SPLIT_CHUNKS = false,
          bool THIN_ALIGNED = false, bool WIDE_FETCH = false, int LOAD_GROUP = LOADS,
          bool WHOLE_SECTORS = false>
__device__ __forceinline__ void any_tile(const float* __restrict__ in, float* __restrict__ out,
                                         std::int64_t rows, std::int64_t cols, std::int64_t row0,
                                         std::int64_t col0, int height, int width, float* tile,
                                         float* out_tile = nullptr, float* extra = nullptr) {
  const int t = threadIdx.x;
  const int load_slot = t % SLOTS, load_row = t / SLOTS;

  constexpr bool WHOLE_CHUNKS = REALIGN_STORES && !SPLIT_CHUNKS;
  static_assert(!(WIDE_FETCH && REALIGN_STORES), "wide fetches: aligned output rows");
  load_tile<REALIGN_LOADS, WHOLE_CHUNKS, WIDE_FETCH, LOAD_GROUP>(in, rows, cols, row0, col0, height,
                                                                 width, load_row, load_slot, tile);
  static_assert(!(WHOLE_SECTORS && (REALIGN_STORES || BULK || THIN_ALIGNED)),
                "whole sectors: aligned output rows stored from registers, no thin edges");
  const bool tile_below = row0 + TILE_DIM < rows;       // with rows % 4 == 0: 4 rows or more
  if (WHOLE_SECTORS && load_row < VEC && tile_below) {  // tile rows 64 .. 67
    const int r = TILE_DIM + load_row;
    *reinterpret_cast<float4*>(&tile[tile_offset(r, VEC * load_slot)]) =
        load_row_chunks<REALIGN_LOADS, WIDE_FETCH>(in, (row0 + r) * cols + col0, load_slot, width,
                                                   true, rows * cols)
            .piece();
  }
  // Aligned output rows with thin last rows or columns, taken by this tile (THIN_ALIGNED):
  // `extra` holds tile rows 64 .. 71 (64 floats each), then tile columns 64 .. 67 of tile
  // rows 0 .. 71 (4 floats each).
  float* const extra_rows = extra;
  float* const extra_cols = extra + THIN_ROWS_ALIGNED * TILE_DIM;
  static_assert(!(THIN_ALIGNED && REALIGN_STORES), "thin aligned edges: aligned output rows");
  if (THIN_ALIGNED && height > TILE_DIM && load_row < THIN_ROWS_ALIGNED) {  // tile row 64 + ..
    const int r = TILE_DIM + load_row;
    *reinterpret_cast<float4*>(&extra_rows[(r - TILE_DIM) * TILE_DIM + VEC * load_slot]) =
        load_row_chunks<REALIGN_LOADS, WIDE_FETCH>(in, (row0 + r) * cols + col0, load_slot, width,
                                                   r < height, rows * cols)
            .piece();
  }
  if (THIN_ALIGNED && width > TILE_DIM && t < TILE_DIM + THIN_ROWS_ALIGNED) {  // columns 64 ..
    *reinterpret_cast<float4*>(&extra_cols[VEC * t]) =
        load_row_chunks<REALIGN_LOADS, WIDE_FETCH>(in, (row0 + t) * cols + col0 + TILE_DIM, 0,
                                                   width - TILE_DIM, t < height, rows * cols)
            .piece();
  }
  if (WHOLE_CHUNKS && width > TILE_DIM && t < TILE_DIM + VEC) {  // columns 64 .. of row t
    const bool row_in = t < TILE_DIM ? t < height : t < TILE_DIM + BELOW && row0 + t < rows;
    *reinterpret_cast<float4*>(&extra[VEC * t]) =
        load_row_chunks<true>(in, (row0 + t) * cols + col0 + TILE_DIM, 0, width - TILE_DIM, row_in,
                              rows * cols)
            .piece();
  }
  // The whole tile must be in shared memory before any thread reads a column of it.
  __syncthreads();

  const block_of_thread mine = block_of(t);
  const int in_row = VEC * mine.rho, in_col = VEC * mine.quad;
  const transposed_block block = transpose_block(tile, in_row, in_col);
  const float4* w = block.w;
  if constexpr (BULK && !REALIGN_STORES) {
    bulk_store(out, rows, row0, col0, in_row, in_col, w, out_tile);
  } else if constexpr (WHOLE_CHUNKS) {
    store_whole_chunks<BULK>(out, rows, row0, col0, height, width, mine, w, tile, out_tile);
  } else {
    // Store phase (aligned output rows, or SPLIT_CHUNKS). Output row c of the tile starts `shift`
    // floats past a 16-byte boundary. Its aligned chunk that begins at tile row in_row - shift
    // takes the last `shift` floats of the previous lane's piece and the first 4 - shift of this
    // lane's; the lane of rho = 15 also stores the row's last `shift` floats, which begin a 17th
    // chunk. Evict-first stores from registers (transpose_fast's sweep: as fast as plain stores
    // are slow).
#pragma unroll
    for (int f = 0; f < VEC; ++f) {
      const int c = in_col + f;  // output row in the tile, [0, TILE_DIM)
      const std::int64_t start = (col0 + c) * rows + row0;
      const int out_shift = REALIGN_STORES ? int(start % VEC) : 0;
      float4 previous = w[f];
      if (REALIGN_STORES) {  // every lane of the warp takes part, also those whose row is outside
        previous.x = __shfl_up_sync(FULL_WARP, w[f].x, 1, SLOTS);
        previous.y = __shfl_up_sync(FULL_WARP, w[f].y, 1, SLOTS);
        previous.z = __shfl_up_sync(FULL_WARP, w[f].z, 1, SLOTS);
        previous.w = __shfl_up_sync(FULL_WARP, w[f].w, 1, SLOTS);
      }
      if (c >= width) continue;
      const float4 v = REALIGN_STORES ? window(previous, w[f], VEC - out_shift) : w[f];
      const int first = in_row - out_shift;  // the tile row of v.x
      float* to = out + start + first;       // 16-byte aligned
      const bool off_sector = WHOLE_SECTORS && start % FLOATS_PER_SECTOR != 0;
      if (off_sector && mine.rho == SLOTS - 1 && tile_below)
        store_four(to + VEC, [&](int i) { return tile[tile_offset(TILE_DIM + i, c)]; });
      if (off_sector && mine.rho == 0 && row0 > 0) {
        // The block above stored this chunk, beside its last one.
      } else if (first >= 0 && first + VEC <= height) {
        __stcs(reinterpret_cast<float4*>(to), v);
      } else {
#pragma unroll
        for (int i = 0; i < VEC; ++i)
          if (first + i >= 0 && first + i < height) __stcs(to + i, float_of(v, i));
      }
      if (REALIGN_STORES && mine.rho == SLOTS - 1) {
#pragma unroll
        for (int i = 0; i < VEC - 1; ++i)
          if (i < out_shift && TILE_DIM - out_shift + i < height)
            __stcs(to + VEC + i, float_of(w[f], VEC - out_shift + i));
      }
    }
  }
  if (THIN_ALIGNED && height > TILE_DIM) {  // output row c's floats 64 + 4 q .. 64 + 4 q + 3
    const int c = t % TILE_DIM, q = t / TILE_DIM;
    if (c < width && TILE_DIM + VEC * q < height) {  // height % 4 == 0: whole chunks
      store_four(out + (col0 + c) * rows + row0 + TILE_DIM + VEC * q,
                 [&](int i) { return extra_rows[(VEC * q + i) * TILE_DIM + c]; });
    }
  }
  if (THIN_ALIGNED && width > TILE_DIM && t < TILE_DIM + THIN_ROWS_ALIGNED) {
    const int e = t % VEC, k = t / VEC;  // output row 64 + e, tile rows 4 k .. 4 k + 3
    if (e < width - TILE_DIM && VEC * k < height) {
      store_four(out + (col0 + TILE_DIM + e) * rows + row0 + VEC * k,
                 [&](int i) { return extra_cols[(VEC * k + i) * VEC + e]; });
    }
  }
  if (WHOLE_CHUNKS && width > TILE_DIM && t < SLOTS * BELOW) {
    // Output rows 64 .. width - 1 (the extra columns), 16 threads each, whole chunks as in
    // store_whole_chunks: chunk k holds tile rows ahead + 4 k .. ahead + 4 k + 3.
    const int e = t / SLOTS, k = t % SLOTS;
    if (e < width - TILE_DIM) {
      const std::int64_t start = (col0 + TILE_DIM + e) * rows + row0;
      const int ahead = (VEC - int(start % VEC)) % VEC;
      const int first = ahead + VEC * k;
      const auto at = [&](int r) { return extra[VEC * r + e]; };  // tile row r, r < 68
      store_chunk(out + start + first, row0 + first, rows, [&](int i) { return at(first + i); });
      if (k == SLOTS - 1)  // absorbed rows past the last chunk
        store_tail(out, start, ahead, height, [&](int i) { return at(TILE_DIM + ahead + i); });
      if (row0 == 0 && k == 0) store_head(out, start, ahead, height, at);
    }
  }
}
//! [any_tile]

}  // namespace transpose_any_shape
