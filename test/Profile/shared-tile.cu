// Bank conflicts from the shared access stride: a 32x32 float tile read
// down a column is 32-way conflicted; padding each row to 33 removes it.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | %profile | FileCheck %s
#include "ff_cuda.h"
#define T 32

// CHECK-LABEL: kernel _Z8unpadded
// CHECK: shared: static=4096
// CHECK: access: shared load bytes=4 count=1 pattern=strided stride=128 bank-ways=32
// CHECK: max-bank-ways=32
__global__ void unpadded(const float *in, float *out, int n) {
  __shared__ float tile[T][T];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// CHECK-LABEL: kernel _Z6padded
// CHECK: shared: static=4224
// CHECK: access: shared load bytes=4 count=1 pattern=strided stride=132 bank-ways=1
// CHECK: max-bank-ways=1
__global__ void padded(const float *in, float *out, int n) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
