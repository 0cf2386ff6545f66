// Atomics are counted by address space.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | %profile | FileCheck %s
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z4histPKhPj
// CHECK: ops: {{.*}}atomic.global=1 atomic.shared=1
// CHECK: access: shared atomic bytes=4 count=1 pattern=unknown
__global__ void hist(const unsigned char *in, unsigned *bins) {
  __shared__ unsigned local[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
