// The listing uses tid and knocker without declaring them, and steps its loop by knoecker: compile
// errors. With -DFIXED the names are declared (tid = threadIdx.x, the knocker an int) and spelt
// alike, and it compiles; sieve_shared's CMakeLists.txt checks both outcomes.
__global__ void names_never_declared(int* tile, int offset, int width) {
#ifdef FIXED
  const int tid = threadIdx.x;
  int knocker = 0;
#define knoecker knocker
#endif
  knocker = tid + 2;
  const int start = (offset % knocker == 0) ? offset : (offset / knocker + 1) * knocker;
  for (int jx = start; jx < offset + width; jx += knoecker) tile[jx - offset] = 1;
}
