// per_device.cuh: what a reusable launch function may remember between calls, and how it asks
// which code the compiler built for the GPU it runs on.
//
// PerDevice<T> keeps one value per device (an SM count, a resident-block count, a kernel
// attribute it has set) and forgets it when that device's context is replaced (cudaDeviceReset),
// so a second GPU, or the same GPU after a reset, never sees a value meant for another context.
// compiled_arch() says which virtual architecture a kernel was built for: a Hopper-only path is
// taken only when both the device and the kernel have it (a compute_80 build of a cluster kernel
// runs on an H200 as the empty body its #if left).
#pragma once

#include <cuda.h>  // the driver's types only: nothing links libcuda, the entry points are looked up
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <mutex>
#include <vector>

namespace common {

// The driver's id of the calling thread's current context (unique for the life of the process:
// a reset's new context gets a new id). 0 when no context is current yet or the driver cannot
// say (a driver older than CUDA 12): then values are kept per device only.
inline unsigned long long current_context_id() {
  struct entry_points {
    PFN_cuCtxGetCurrent_v4000 get_current = nullptr;
    PFN_cuCtxGetId_v12000 get_id = nullptr;
  };
  static const entry_points driver = [] {
    entry_points e;
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault,
                                         &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      e.get_current = reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(fn);
    if (cudaGetDriverEntryPointByVersion("cuCtxGetId", &fn, 12000, cudaEnableDefault, &found) ==
            cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      e.get_id = reinterpret_cast<PFN_cuCtxGetId_v12000>(fn);
    (void)cudaGetLastError();  // a missing entry point is not the caller's error
    return e;
  }();
  if (!driver.get_current || !driver.get_id) return 0;
  CUcontext context = nullptr;
  if (driver.get_current(&context) != CUDA_SUCCESS || context == nullptr) return 0;
  unsigned long long id = 0;
  return driver.get_id(context, &id) == CUDA_SUCCESS ? id : 0;
}

template <class T>
class PerDevice {
 public:
  // The value for (device, context): computed by compute(T&) -> cudaError_t on the first call for
  // that device and again after its context changed; an error is returned and nothing is kept.
  template <class Compute>
  cudaError_t get(int device, unsigned long long context, T& value, Compute compute) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (device < 0) return cudaErrorInvalidDevice;
    if (std::size_t(device) >= entries_.size()) entries_.resize(std::size_t(device) + 1);
    entry& e = entries_[std::size_t(device)];
    if (!e.valid || e.context != context) {
      T fresh{};
      const cudaError_t error = compute(fresh);
      if (error != cudaSuccess) return error;
      e = entry{true, context, fresh};
    }
    value = e.value;
    return cudaSuccess;
  }

  // The same for the calling thread's current device and context (creating the context first,
  // so that what compute() sets on it is not lost to a context made later).
  template <class Compute>
  cudaError_t get_current(T& value, Compute compute) {
    int device = 0;
    cudaError_t error = cudaGetDevice(&device);
    if (error != cudaSuccess) return error;
    unsigned long long context = current_context_id();
    if (context == 0) {
      error = cudaFree(nullptr);  // makes the device's primary context current
      if (error != cudaSuccess) return error;
      context = current_context_id();
    }
    return get(device, context, value, compute);
  }

 private:
  struct entry {
    bool valid = false;
    unsigned long long context = 0;
    T value{};
  };
  std::mutex mutex_;
  std::vector<entry> entries_;
};

// The virtual architecture kernel was compiled for, as __CUDA_ARCH__ / 10 saw it (75 for a
// compute_75 PTX build that the driver compiles for an H200 at first launch, 90 for sm_90 code).
template <class Kernel>
cudaError_t compiled_arch(Kernel* kernel, int& arch) {
  cudaFuncAttributes attributes = {};
  const cudaError_t error = cudaFuncGetAttributes(&attributes, kernel);
  if (error != cudaSuccess) return error;
  arch = attributes.ptxVersion;
  return cudaSuccess;
}

// The current device's compute capability as one number (90 for an H200, 75 for a T4).
inline cudaError_t device_arch(int& arch) {
  int device = 0, major = 0, minor = 0;
  cudaError_t error = cudaGetDevice(&device);
  if (error == cudaSuccess)
    error = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (error == cudaSuccess)
    error = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  arch = major * 10 + minor;
  return error;
}

// Does kernel run its sm_90 code here? Both the device (9.0 on) and the build (compute_90 on).
template <class Kernel>
cudaError_t runs_hopper_code(Kernel* kernel, bool& hopper) {
  int device = 0, built = 0;
  cudaError_t error = device_arch(device);
  if (error == cudaSuccess) error = compiled_arch(kernel, built);
  hopper = error == cudaSuccess && device >= 90 && built >= 90;
  return error;
}

}  // namespace common
