// A device function that was not inlined is followed, its work counted.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | %profile | FileCheck %s
#include "ff_cuda.h"

__device__ __noinline__ float poly(float x) { return x * x * 0.5f + x; }

// CHECK-LABEL: kernel _Z9with_callPf
// CHECK: ops: fp32={{[1-9]}}
// CHECK: calls: followed=1 recursion=no indirect=no
__global__ void with_call(float *x) {
  x[threadIdx.x] = poly(x[threadIdx.x]);
}
