#include "cuda_shim.h"

__global__ void k_small(float *p) {}
__global__ void k_big(float *p) {}
__global__ void k_param(float *p) {}
__global__ void k_dim3var(float *p) {}
__global__ void k_modified(float *p) {}
__global__ void k_api(float *p) {}
__global__ void k_ex(float *p) {}
__global__ void k_ex_dyn(float *p) {}
__global__ void k_pointer(float *p) {}
__global__ void k_query(float *p) {}
__global__ void k_branches(float *p) {}
__global__ void k_none(float *p) {}
__global__ void k_components(float *p) {}

const unsigned kThreads = 128;
unsigned gThreads = 128;

void launch_param(float *p, int threads) { k_param<<<1, threads>>>(p); }

void (*table[])(float *) = {k_pointer};

void host(float *p, bool big) {
  // Constant sizes below the bound: fine.
  k_small<<<4, kThreads>>>(p);
  k_small<<<4, dim3(8, 8)>>>(p);
  // A larger constant block: refused.
  k_big<<<1, 128>>>(p);
  k_big<<<1, 512>>>(p);
  // A dim3 variable, never modified: its initialiser counts.
  dim3 block(16, 16);
  k_dim3var<<<1, block>>>(p);
  // A variable changed in a loop: not known.
  for (int t = 32; t <= 1024; t *= 2)
    k_modified<<<1, t>>>(p);
  // A global that is not const: not known.
  k_modified<<<1, gThreads>>>(p);
  // The runtime API.
  void *args[] = {&p};
  cudaLaunchKernel((const void *)k_api, dim3(1), dim3(64), args);
  // cudaLaunchKernelEx with a configuration built here.
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(4);
  cfg.blockDim = dim3(128);
  cudaLaunchKernelEx(&cfg, k_ex, p);
  cudaLaunchConfig_t cfg2 = {dim3(4), dim3(32)};
  cfg2.blockDim.x = big ? 32 : 1024;
  cudaLaunchKernelEx(&cfg2, k_ex_dyn, p);
  // A query is not a launch.
  cudaFuncSetAttribute((const void *)k_query, 0, 0);
  k_query<<<1, 32>>>(p);
  // Values assigned on different paths: the largest counts.
  unsigned threads = 64;
  if (big)
    threads = 256;
  k_branches<<<1, threads>>>(p);
  // Components set one by one.
  dim3 shape;
  shape.x = 32;
  shape.y = 4;
  k_components<<<1, shape>>>(p);
}
