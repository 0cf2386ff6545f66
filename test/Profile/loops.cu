// Loop weighting: a constant trip count is exact; a trip count in a kernel
// parameter is symbolic and guessed, then resolved by -flipflop-args; a
// grid-stride loop is recognised as such.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O1 %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefixes=CHECK,GUESS
// RUN: %profile -flipflop-args=2=100 %t.ll | FileCheck %s --check-prefixes=CHECK,RESOLVED
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z8constantPf
// CHECK: ops: fp32=10
// CHECK: loop: depth=1 {{.*}}trip=10 exact=yes guessed=no
__global__ void constant(float *x) {
  float acc = x[threadIdx.x];
  #pragma unroll 1
  for (int k = 0; k < 10; ++k)
    acc = acc * 0.5f;
  x[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel _Z9parameterPfS_i
// GUESS: ops: fp32=16
// GUESS: loop: depth=1 {{.*}}trip=16 exact=no guessed=yes symbolic=
// GUESS: guess: loop{{.*}}assumed 16
// RESOLVED: ops: fp32=100
// RESOLVED: loop: depth=1 {{.*}}trip=100 exact=no guessed=no symbolic=
__global__ void parameter(float *x, float *y, int n) {
  float acc = 0;
  #pragma unroll 1
  for (int k = 0; k < n; ++k)
    acc += x[k];
  y[threadIdx.x] = acc;
}

// CHECK-LABEL: kernel _Z10gridstride
// CHECK: grid-stride=yes
// CHECK: loop: depth=1 {{.*}}grid-stride
__global__ void gridstride(const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i];
}
