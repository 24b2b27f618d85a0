// The listing sizes its shared tile by a variable (its b_w = blockDim.x): a compile error, as the
// size of a __shared__ array must be a constant. With -DFIXED the size is a constant and it
// compiles; sieve_shared's CMakeLists.txt checks both outcomes.
__global__ void tile_sized_at_run_time(int* sieve) {
#ifdef FIXED
  constexpr int TILE = 256;
#else
  const int TILE = blockDim.x;
#endif
  __shared__ int tile[TILE];
  tile[threadIdx.x] = sieve[threadIdx.x];
  __syncthreads();
  sieve[threadIdx.x] = tile[(threadIdx.x + 1) % TILE];
}
