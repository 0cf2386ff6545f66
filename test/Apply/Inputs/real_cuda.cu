// Parsed against the real CUDA headers (clang includes them itself).
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void __launch_bounds__(512) bounded(float *y) { y[threadIdx.x] = 0; }

__global__ void ex_kernel(float *y, int n) { y[threadIdx.x] = n; }

void run(float *x, float *y, int n) {
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  void *args[] = {&y};
  cudaLaunchKernel((const void *)bounded, dim3(1), dim3(512), args, 0, 0);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8);
  cfg.blockDim = dim3(32, 4);
  cudaLaunchKernelEx(&cfg, ex_kernel, y, n);
}
