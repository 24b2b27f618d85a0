// The transpose_any_shape program; common/transpose/program.cuh does the contract. --sweep measures
// the variants of transpose_any_shape::variants().
#include "common/transpose/program.cuh"
#include "transpose_any_shape.cuh"

int main(int argc, char** argv) {
  using namespace transpose_any_shape;
  common::matrix_step step;
  step.step = "transpose_any_shape";
  step.summary =
      "every-shape transpose: 16-byte accesses at any alignment, one launch, narrow matrices, "
      "sides of a few dozen floats and vectors on kernels of their own, aligned 128-byte lines "
      "where both sides are odd, about one wave of few rows or columns in stretches, loads in "
      "halves where only the input rows are off, the few-rows kernel for up to 127 rows off a "
      "multiple of 4, and whole 32-byte sectors per block where output rows start off them";
  step.result = common::matrix_result::transpose;
  step.variants = variants();
  step.sweep_help =
      "also measure the narrow kernel for sides of at most 8 floats instead of 16, and 64 x 64 "
      "tiles for every shape (no narrow kernel), the tiles in transpose_fast's order (along the "
      "rows of tiles first, with bulk stores) and always down the columns of tiles first, short "
      "rows of tiles with bulk stores instead of stores from registers, both sides realigned "
      "where only the input rows need it, the 16-byte output chunks at tile edges split "
      "between the two blocks instead of stored whole, whole tiles with output rows off 16-byte "
      "boundaries stored from registers instead of with bulk copies, the last 1 to 3 rows and "
      "columns of such a matrix in tiles of their own instead of in the tiles above and beside "
      "them, the last 4 or 8 rows and 1 to 3 columns of a matrix with aligned output rows in "
      "tiles of their own instead of in the tiles above and beside them, input rows off 256-byte "
      "boundaries loaded without asking the L2 for the whole 256 bytes around each load where "
      "the output rows are aligned, and matrices with both sides odd on the realigning kernel on "
      "every GPU (no aligned lines), on aligned lines on every GPU, on aligned lines with thin "
      "last rows and columns in tiles of their own, without the one-wave aligned lines for "
      "small matrices, and with those at 8 blocks per SM whatever the number of tiles, and "
      "matrices of at most 40 rows whose output rows start off 16-byte boundaries on 64 x 64 "
      "tiles instead of the narrow kernel or the few-side kernels, and matrices with a side of 17 "
      "to 64 floats without the few-side kernels (on the kernels before them), on the few-side "
      "kernels where both sides are aligned too, with 65 to 127 and with 97 to 127 columns of rows "
      "off a multiple of 4 on the tiles instead of the few-columns kernel, small matrices of 65 "
      "to 127 such columns on the few-columns kernel in runs of 128 floats as before the rule "
      "for small matrices, matrices with a side of at most 64 floats whose runs are a few "
      "waves on the few-side kernels in runs of 128 floats as before the rule for a few waves "
      "(never on the tiles), in runs of 64 floats only, and without the tiles, small wide "
      "matrices of 41 to 112 rows on the tiles as before the rule for them, and on the few-side "
      "kernels in runs of 128 floats where they would be fewer blocks than the GPU has SMs, "
      "aligned lines for small matrices only where both sides are odd, and matrices of 20 to "
      "128 rows or 20 to 64 columns in about one wave of blocks without the stretch kernels (on "
      "the rules before them), and matrices whose input rows alone are off 16-byte boundaries "
      "on the kernels before loads in halves (five blocks per SM), and large wide matrices of 65 "
      "to 113 and of 114 to 127 rows off a multiple of 4 on the tiles or aligned lines as "
      "before the few-rows kernel took them, and matrices whose every other output row starts 16 "
      "bytes past a 32-byte sector (rows % 8 == 4) on tiles whose edges split such sectors "
      "between two blocks, as before whole sectors per block, and such matrices taken along the "
      "rows of tiles as before whole sectors along them, and few columns of rows off a multiple "
      "of 4 on the few-columns kernel without whole sectors, and with whole sectors past 64 "
      "columns in runs of 128 floats as before runs of 64 within 196 KB of shared rows per SM, "
      "and 116 to 127 such columns on it as before the tiles took them from 7 to 11 runs of 128 "
      "rows per SM, and matrices whose every other output row starts 32 bytes past a 64-byte "
      "boundary, with input rows off such boundaries, along the rows of tiles as before the "
      "order down the columns for those about as wide as tall, and such matrices with input "
      "rows off 64-byte boundaries and rows of tiles longer than 700 tiles along the rows as "
      "before the order down the columns for them, and wide fetches down the columns of tiles "
      "only in columns of up to 20000 rows as before aligned loads took them up to 28000, and "
      "matrices whose output rows start on 64-byte boundaries but off 256-byte ones, with input "
      "rows off 64-byte boundaries, along the rows of tiles up to 4 columns' lengths as before "
      "the order down the columns from 1.5 in columns of at least 4096 rows, and matrices whose "
      "every other output row starts 16 bytes past a sector, with thin last columns, on the "
      "tiles that absorb those columns as before whole sectors took them in tiles of their own";
  return common::run_matrix_program(argc, argv, step);
}
