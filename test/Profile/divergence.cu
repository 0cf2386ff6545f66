// A branch on threadIdx.x is divergent; one on a kernel argument is not.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | %profile | FileCheck %s
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z9divergentPf
// CHECK: divergence: branches=1
__global__ void divergent(float *x) {
  if (threadIdx.x % 2)
    x[threadIdx.x] = __builtin_sqrtf(x[threadIdx.x]);
}

// CHECK-LABEL: kernel _Z7uniformPfi
// CHECK: divergence: branches=0 work-fraction=0
__global__ void uniform(float *x, int flag) {
  if (flag)
    x[threadIdx.x] = 1.0f;
}
