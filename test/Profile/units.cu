// Work by functional unit: FP32 FMA, FP64 arithmetic (x * x + 1.0 is one
// contracted FMA: one instruction, two FLOPs), SFU transcendentals.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -ffast-math %s | %profile | FileCheck %s
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z4fp32PfS_
// CHECK: ops: fp32=1 {{.*}}
// CHECK: flops: fp32=2 fp64=0
__global__ void fp32(float *x, float *y) {
  int i = threadIdx.x;
  y[i] = __builtin_fmaf(x[i], 3.0f, y[i]);
}

// CHECK-LABEL: kernel _Z4fp64PdS_
// CHECK: ops: fp64=1
// CHECK: flops: fp32=0 fp64=2
__global__ void fp64(double *x, double *y) {
  int i = threadIdx.x;
  y[i] = x[i] * x[i] + 1.0;
}

// CHECK-LABEL: kernel _Z3sfuPfS_
// CHECK: ops: {{.*}}sfu=2
__global__ void sfu(float *x, float *y) {
  int i = threadIdx.x;
  y[i] = __builtin_expf(x[i]) + __builtin_sqrtf(x[i]);
}
