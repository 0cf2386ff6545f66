#include "cuda_shim.h"

// Grid-stride loops: correct for any block and grid size.
__global__ void stream(float *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    p[i] *= 2;
}
__global__ void stream_shm(float *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    p[i] += 1;
}
// Not shown block-size-agnostic by the report.
__global__ void fixed(float *p) { p[threadIdx.x] = 0; }

#define THREADS 128

void host(float *p, int n) {
  stream<<<120, 128>>>(p, n);
  stream<<<120, dim3(64)>>>(p, n);
  stream<<<(n + 127) / 128, 128>>>(p, n);
  stream<<<120, THREADS>>>(p, n);
  stream<<<120, 256>>>(p, n);
  stream_shm<<<120, 512, 512 * sizeof(float)>>>(p, n);
  fixed<<<1, 128>>>(p);
}
