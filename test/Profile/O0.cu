// -O0 input (allocas, no inferred address spaces) still gives a profile:
// kernel pointer arguments are global memory, the loop is found; a * x + y
// is one FMA (fp32=1), as the back end emits it.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O0 -Xclang -disable-O0-optnone %s | %profile | FileCheck %s
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O0 %s | %profile | FileCheck %s
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z5saxpyfPKfPfi
// CHECK: ops: fp32=1 {{.*}}load.global=2 store.global=1 branch=1
// CHECK-NOT: generic
// CHECK: access: global load bytes=4 count=1 pattern=coalesced stride=4
// CHECK: access: global load bytes=4 count=1 pattern=coalesced stride=4
// CHECK: access: global store bytes=4 count=1 pattern=coalesced stride=4
__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
