#include "cuda_shim.h"

// Each kernel's report recommends a min-blocks cap (test/Apply/min-blocks.test).
__global__ void k_tie(float *p) { p[threadIdx.x] = 0; }
__global__ void k_exact(float *p) { p[threadIdx.x] = 1; }
__global__ void k_noptxas(float *p) { p[threadIdx.x] = 2; }
__global__ void k_spills(float *p) { p[threadIdx.x] = 3; }
__global__ void k_nospills(float *p) { p[threadIdx.x] = 4; }
__global__ void k_alone(float *p) { p[threadIdx.x] = 5; }
__global__ void k_tied(float *p) { p[threadIdx.x] = 6; }

void host(float *p) {
  k_tie<<<1, 256>>>(p);
  k_exact<<<1, 256>>>(p);
  k_noptxas<<<1, 256>>>(p);
  k_spills<<<1, 256>>>(p);
  k_nospills<<<1, 256>>>(p);
  k_alone<<<1, 256>>>(p);
  k_tied<<<1, 256>>>(p);
}
