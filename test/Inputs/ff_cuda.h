// Minimal CUDA declarations for tests compiled with -nocudainc: clang's own
// builtin variables plus the attribute macros, so no CUDA toolkit is needed.
#pragma once
// With the real CUDA headers (clang's runtime wrapper) nothing is needed.
#ifndef __CLANG_CUDA_RUNTIME_WRAPPER_H__
#include <__clang_cuda_builtin_vars.h>
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __attribute__((always_inline)) inline
__device__ static inline float __expf(float x) { return __builtin_expf(x); }
__device__ static inline float ff_rsqrtf(float x) { return __builtin_sqrtf(1.0f / x); }
__device__ static inline unsigned atomicAdd(unsigned *p, unsigned v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
__device__ static inline float atomicAdd(float *p, float v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
#endif
