// bulk_copy.cuh: the Hopper pieces scan_pipelined's loads are made of, wrapped one PTX
//   instruction each: the mbarrier (init, its fence, arrival with a byte count, parity wait), the
//   fence between generic and async-proxy accesses of shared memory, and the bulk copy from
//   global to shared memory through the TMA unit (cp.async.bulk, completion counted by the
//   mbarrier). Source: the PTX ISA, sections on asynchronous data movement.
#pragma once

#include <cstdint>

namespace scan_pipelined {

//! [bulk]
// The mbarrier of a stage counts one arrival (thread 0's) and the bytes its bulk copy delivers; a
// wait on it returns once both are in, for the phase given by its parity.
// Hopper code: the mbarrier's transaction counts and parity waits, its init fence and the bulk copy
// need sm_90 (mbarrier.init sm_80). Compiled for an older GPU they stop the kernel
// (no_hopper_code); the host never launches that code there (pipeline_code_here asks both the
// device and the kernel's build).
__device__ __forceinline__ void no_hopper_code() { __trap(); }
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void barrier_init(std::uint64_t* barrier) {
#if __CUDA_ARCH__ >= 800
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(barrier)) : "memory");
#else
  no_hopper_code();
#endif
}
// Makes the initialized barriers visible to the TMA unit (the async proxy).
__device__ __forceinline__ void barrier_init_fence() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  no_hopper_code();
#endif
}
// Thread 0's arrival; `bytes` more are still to come from a bulk copy (0: none).
__device__ __forceinline__ void barrier_arrive(std::uint64_t* barrier, unsigned bytes) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)),
      "r"(bytes)
      : "memory");
#else
  no_hopper_code();
#endif
}
__device__ __forceinline__ bool barrier_try_wait(std::uint64_t* barrier, unsigned parity) {
  unsigned done = 1;
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; "
      "}"
      : "=r"(done)
      : "r"(shared_address(barrier)), "r"(parity)
      : "memory");
#else
  no_hopper_code();
#endif
  return done != 0;
}
// Orders this thread's earlier generic accesses of shared memory before its later bulk copies
// (the async proxy).
__device__ __forceinline__ void async_proxy_fence() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
  no_hopper_code();
#endif
}
// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from global to shared memory
// through the TMA unit; the barrier counts them in when they have landed.
__device__ __forceinline__ void bulk_load(void* to, const void* from, unsigned bytes,
                                          std::uint64_t* barrier) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(shared_address(to)),
      "l"(from), "r"(bytes), "r"(shared_address(barrier))
      : "memory");
#else
  no_hopper_code();
#endif
}
//! [bulk]

}  // namespace scan_pipelined
