// reduce10: when the whole grid is one thread-block cluster, finish in distributed shared memory.
// The one idea: on Hopper (sm_90) the blocks of a cluster run at the same time on one GPC and can
//   address each other's shared memory. When n fits one cluster's blocks, every block writes its
//   sum into a slot in the shared memory of block 0 of the cluster, one cluster barrier makes the
//   slots visible, and one warp of block 0 adds them and writes the result: no partial sums in
//   global memory, no atomics, no last-block detection, still one launch.
// Changes from the previous step (reduce9): for n <= CLUSTER_ELEMENTS launch() starts one cluster
//   of up to CLUSTER_BLOCKS blocks with cudaLaunchKernelEx (the loads, thread_sum() and
//   block_sum() are reduce8's and reduce7's); it needs no workspace. Larger n, or a GPU (or a
//   build for an older GPU) without clusters, go to reduce9::launch unchanged.
// What limits it: at 2^16 the launch and one DRAM round trip for the loads, which no
//   single-launch reduction avoids; the cluster barrier replaces the trip to L2 and back. A
//   cluster holds at most 8 blocks (16 with a non-portable opt-in), so above CLUSTER_ELEMENTS
//   the grid that fills the GPU (reduce9) is faster than a cluster that loops.
// Run: build/bin/reduce10 [--n 2^16] [--type int32|float|both]
// Source: beyond the slides (source 001); thread-block clusters and distributed shared memory as
//   described in the CUDA C++ Programming Guide (Hopper, compute capability 9.0).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "chapters/reduction/11_reduce9/reduce9.cuh"
#include "common/check.cuh"
#include "common/per_device.cuh"

namespace reduce10 {

namespace cg = cooperative_groups;

constexpr int BLOCK_THREADS = reduce8::BLOCK_THREADS;  // the loads are reduce8's thread_sum()

// Tuning constants (see the page). CLUSTER_BLOCKS: the largest cluster launched; 8 is the portable
// limit, 16 runs on H100/H200 once the kernel opts in (cluster_fits() sets the non-portable
// attribute). CLUSTER_TRIPS: how many tiles each block of a full cluster may sum before reduce9's
// full grid takes over.
constexpr int CLUSTER_BLOCKS = 8;
constexpr int CLUSTER_TRIPS = 1;
constexpr int CLUSTER_ELEMENTS = CLUSTER_TRIPS * CLUSTER_BLOCKS * reduce8::TILE_ELEMENTS;
static_assert(CLUSTER_BLOCKS >= 1 && CLUSTER_BLOCKS <= 16 &&
                  (CLUSTER_BLOCKS & (CLUSTER_BLOCKS - 1)) == 0,
              "a power of two, at most 16 (the hardware's limit)");
static_assert(CLUSTER_BLOCKS <= reduce7::WARP_THREADS, "one warp adds the blocks' sums");

//! [kernel]
// The grid is exactly one cluster, so blockIdx.x is the block's rank in the cluster and
// reduce8::thread_sum() shares the tiles out as it does for any grid. Built for an older GPU the
// kernel is empty: launch() never starts it there (cluster_available() is false).
template <class T>
__global__ void __launch_bounds__(BLOCK_THREADS)
    kernel(const T* __restrict__ in, int n, T* out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  __shared__ T block_sums[CLUSTER_BLOCKS];  // [0, gridDim.x) used, and only in block 0's copy
  const cg::cluster_group cluster = cg::this_cluster();
  // Barrier phase 1, "this block has started": arrive now, wait after the loads. Another block's
  // shared memory may be written only once that block is running; by the time the loads are
  // done every block has long arrived, so the wait costs nothing. Relaxed: no data to publish.
  __cluster_barrier_arrive_relaxed();
  const T sum = reduce7::block_sum<BLOCK_THREADS>(reduce8::thread_sum(in, n));  // in thread 0
  __cluster_barrier_wait();  // every block of the cluster, block 0 included, is running
  if (threadIdx.x == 0) cluster.map_shared_rank(block_sums, 0)[blockIdx.x] = sum;  // block 0's slot
  // Barrier phase 2 (arrive.release + wait.acquire): every block's store into block 0's slots has
  // landed and is visible to block 0. Block 0's shared memory outlives the other blocks, which may
  // exit now: nobody reads their shared memory.
  cluster.sync();
  if (blockIdx.x == 0 && threadIdx.x < reduce7::WARP_THREADS) {
    const T total = reduce7::warp_sum(threadIdx.x < gridDim.x ? block_sums[threadIdx.x] : T(0));
    if (threadIdx.x == 0) *out = total;
  }
#endif
}
//! [kernel]

//! [launch]
// Does n go to one cluster? A pure function, so the host tests can check the boundary.
constexpr bool fits_one_cluster(int n) { return n <= CLUSTER_ELEMENTS; }

// The cluster for n <= CLUSTER_ELEMENTS: one block per tile (reduce8::grid_for), at most
// CLUSTER_BLOCKS, rounded up to a power of two (a block past the last tile sums nothing).
constexpr int cluster_blocks_for(int n) {
  const int tiles = n / reduce8::TILE_ELEMENTS + (n % reduce8::TILE_ELEMENTS != 0);
  int blocks = 1;
  while (blocks < tiles && blocks < CLUSTER_BLOCKS) blocks *= 2;
  return blocks;
}

inline cudaLaunchConfig_t cluster_config(int blocks, cudaLaunchAttribute* attribute) {
  attribute->id = cudaLaunchAttributeClusterDimension;
  attribute->val.clusterDim.x = unsigned(blocks);  // the whole grid is one cluster
  attribute->val.clusterDim.y = 1;
  attribute->val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(unsigned(blocks));
  config.blockDim = dim3(BLOCK_THREADS);
  config.attrs = attribute;
  config.numAttrs = 1;
  return config;
}

// Can this GPU run a cluster of CLUSTER_BLOCKS of this kernel? It needs cluster launch (compute
// capability 9.0 on), a kernel built for it (compute_90 on: a compute_80 build is the empty body
// above even on an H200, so the device alone cannot say), and room for the cluster
// (cudaOccupancyMaxActiveClusters, which also says no for 16 blocks where 16 is not allowed).
template <class T>
cudaError_t cluster_fits(int device, bool& fits) {
  fits = false;
  int cluster_launch = 0;
  CUDA_TRY(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device));
  bool hopper = false;
  CUDA_TRY(common::runs_hopper_code(kernel<T>, hopper));
  if (!cluster_launch || !hopper) return cudaSuccess;
  if (CLUSTER_BLOCKS > 8)
    CUDA_TRY(cudaFuncSetAttribute(kernel<T>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = cluster_config(CLUSTER_BLOCKS, &attribute);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, kernel<T>, &config) != cudaSuccess) {
    (void)cudaGetLastError();  // not an error of the program: this cluster is not possible here
    return cudaSuccess;
  }
  fits = clusters >= 1;
  return cudaSuccess;
}

// Asked once per device (and again after a reset), for both types.
inline cudaError_t query_cluster_available(bool& available) {
  static common::PerDevice<bool> cache;
  return cache.get_current(available, [](bool& both) {
    int device = 0;
    bool fits_int32 = false, fits_float = false;
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cluster_fits<std::int32_t>(device, fits_int32));
    CUDA_TRY(cluster_fits<float>(device, fits_float));
    both = fits_int32 && fits_float;
    return cudaSuccess;
  });
}

inline bool cluster_available() {
  bool available = false;
  CUDA_CHECK(query_cluster_available(available));
  return available;
}

inline bool uses_cluster(int n) { return fits_one_cluster(n) && cluster_available(); }

// The cluster keeps its partial sums in shared memory: no workspace. reduce9's otherwise.
inline std::size_t workspace_elements(int n) {
  return uses_cluster(n) ? 0 : reduce9::workspace_elements(n);
}

// The cluster launch alone, for n <= CLUSTER_ELEMENTS where cluster_available(); it returns its
// error instead of ending the program (reduce11 launches it as reusable code).
template <class T>
cudaError_t launch_cluster(const T* d_in, int n, T* d_out, cudaStream_t stream = 0) {
  cudaLaunchAttribute attribute;
  cudaLaunchConfig_t config = cluster_config(cluster_blocks_for(n), &attribute);
  config.stream = stream;
  return cudaLaunchKernelEx(&config, kernel<T>, d_in, n, d_out);
}

// One launch for every n, 0 included (one block of one cluster that adds nothing and writes 0).
template <class T>
void launch(const T* d_in, int n, T* d_out, T* d_workspace) {
  if (!uses_cluster(n)) {
    reduce9::launch(d_in, n, d_out, d_workspace);  // the full grid, finished by the last block
    return;
  }
  CUDA_CHECK(launch_cluster(d_in, n, d_out));
}
//! [launch]

}  // namespace reduce10
