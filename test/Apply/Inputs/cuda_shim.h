// A minimal stand-in for the CUDA runtime headers, for flipflop-apply tests.
// Compile with: -x cuda -nocudainc -nocudalib (host or device side).
#ifndef FLIPFLOP_TEST_CUDA_SHIM_H
#define FLIPFLOP_TEST_CUDA_SHIM_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

typedef __SIZE_TYPE__ size_t;
typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned X = 1, unsigned Y = 1,
                                     unsigned Z = 1)
      : x(X), y(Y), z(Z) {}
};

struct cudaLaunchAttribute;
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
};

// Clang lowers kernel<<<...>>> to one of these, depending on the CUDA version.
extern "C" int cudaConfigureCall(dim3 Grid, dim3 Block, size_t Shmem = 0,
                                 cudaStream_t Stream = 0);
extern "C" int __cudaPushCallConfiguration(dim3 Grid, dim3 Block,
                                           size_t Shmem = 0,
                                           cudaStream_t Stream = 0);

extern "C" cudaError_t cudaLaunchKernel(const void *Func, dim3 Grid,
                                        dim3 Block, void **Args,
                                        size_t Shmem = 0,
                                        cudaStream_t Stream = 0);
extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Config,
                                           const void *Func, void **Args);
template <typename... ExpTypes, typename... ActTypes>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *Config,
                               void (*Kernel)(ExpTypes...),
                               ActTypes &&...Args) {
  void *Ptrs[sizeof...(ActTypes) + 1] = {((void *)&Args)...};
  return cudaLaunchKernelExC(Config, (const void *)Kernel, Ptrs);
}
extern "C" cudaError_t cudaFuncSetAttribute(const void *Func, int Attr,
                                            int Value);

struct uint3 {
  unsigned x, y, z;
};
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;

#endif
