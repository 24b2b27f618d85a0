// resident_launch.cuh: scan_pipelined's grids of resident blocks: how many blocks of a kernel the
//   current GPU runs at once, and a cooperative launch of at most that many (every block resident
//   at once, or an error: never a hang).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "common/check.cuh"

namespace scan_pipelined {

// How many blocks of `k` (`threads` threads, `bytes` of dynamic shared memory each) fit on the
// current GPU at once: the most a cooperative launch may have; 0 where one does not fit. Sets the
// kernel's shared-memory limit on the current context (which a device reset forgets: callers keep
// the result per device and context).
template <class... Params>
cudaError_t blocks_at_once(void (*k)(Params...), int threads, std::size_t bytes, int& blocks) {
  int device = 0, sms = 0, optin = 0, per_sm = 0;
  blocks = 0;
  CUDA_TRY(cudaGetDevice(&device));
  CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes fixed{};  // the kernel's static shared memory
  CUDA_TRY(cudaFuncGetAttributes(&fixed, k));
  if (bytes + fixed.sharedSizeBytes > std::size_t(optin)) return cudaSuccess;
  CUDA_TRY(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, bytes));
  blocks = sms * per_sm;
  return cudaSuccess;
}
// The same for programs and probes: a CUDA error ends the process; at least 1.
template <class... Params>
int blocks_at_once(void (*k)(Params...), int threads, std::size_t bytes) {
  int blocks = 0;
  CUDA_CHECK(blocks_at_once(k, threads, bytes, blocks));
  return std::max(blocks, 1);
}

// Launches `kernel` as a cooperative kernel on `stream`: every block resident at once, or the
// launch fails with an error (never a hang).
template <class... Params, class... Args>
cudaError_t launch_cooperative(cudaStream_t stream, void (*kernel)(Params...), int blocks,
                               int threads, std::size_t shared_bytes, Args... args) {
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(blocks));
  config.blockDim = dim3(unsigned(threads));
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, Params(args)...);
}
// The same on stream 0 for the probe: a CUDA error ends the process.
template <class... Params, class... Args>
void launch_resident(void (*kernel)(Params...), int blocks, int threads, std::size_t shared_bytes,
                     Args... args) {
  CUDA_CHECK(launch_cooperative(cudaStream_t(0), kernel, blocks, threads, shared_bytes, args...));
}

}  // namespace scan_pipelined
