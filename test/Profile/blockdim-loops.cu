// Loops bounded by a block dimension or an argument, which -O2 unrolls by 8
// behind a guard that skips the unrolled loop when the bound is below 8
// (issue 19). Trip counts are evaluated in the IR's widths with the guards
// respected: no unsigned wrap (it used to give 1e12 FP32 ops per thread), a
// loop over blockDim.d is recorded as a function of blockDim.d for the model,
// and a loop over blockDim.x is no longer mistaken for a block-stride loop.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: %profile -flipflop-args=1=3 %t.ll | FileCheck %s --check-prefix=ARG3
// RUN: %profile -flipflop-args=1=100 %t.ll | FileCheck %s --check-prefix=ARG100
#include "ff_cuda.h"

// The unrolled loop (8 fadds, skipped when blockDim.y < 8) runs blockDim.y/8
// times: 1/8 on average at the reference block (blockDim.y = 1), where the
// remainder runs once. No divergence: blockDim is the same for all threads.
// CHECK-LABEL: kernel _Z5loopYPf
// CHECK: scales-with-block=no
// CHECK: ops: fp32=2 {{.*}}
// CHECK-DAG: loop: depth=1 {{.*}} trip=1 exact=no guessed=no symbolic=
// CHECK-DAG: loop: depth=1 {{.*}} trip=0.125 exact=no guessed=no block-dim-trip=0.125*blockDim.y+0 share=0.{{[0-9]+}} mem-share=0 symbolic=
// CHECK: divergence: branches=0
// CHECK-NOT: guess:
__global__ void loopY(float *out) {
  for (int j = 0; j < blockDim.y; j++)
    out[blockIdx.x] += 1.0f;
}

// CHECK-LABEL: kernel _Z5loopZPf
// CHECK: block-dim-trip=0.125*blockDim.z+0
// CHECK-NOT: guess:
__global__ void loopZ(float *out) {
  for (int j = 0; j < blockDim.z; j++)
    out[blockIdx.x] += 1.0f;
}

// At the reference 256 threads: 32 passes of the unrolled loop, remainder
// skipped; work grows with blockDim.x, it is not a block-stride loop.
// CHECK-LABEL: kernel _Z5loopXPf
// CHECK: scales-with-block=no
// CHECK: ops: fp32=256 {{.*}}
// CHECK-DAG: loop: depth=1 {{.*}} trip=0 exact=no guessed=no symbolic=
// CHECK-DAG: loop: depth=1 {{.*}} trip=32 exact=no guessed=no block-dim-trip=0.125*blockDim.x+0 share=
__global__ void loopX(float *out) {
  for (int j = 0; j < blockDim.x; j++)
    out[blockIdx.x] += 1.0f;
}

// n = 3: the unrolled loop's guard (n < 8) skips it, the remainder runs 3
// times. n = 100: 12 unrolled passes and 4 remainder iterations.
// CHECK-LABEL: kernel _Z7loopArgPfi
// CHECK: guess: loop{{.*}}assumed 16
// ARG3-LABEL: kernel _Z7loopArgPfi
// ARG3: ops: fp32=3 {{.*}}
// ARG3-DAG: loop: depth=1 {{.*}} trip=0 exact=no guessed=no
// ARG3-DAG: loop: depth=1 {{.*}} trip=3 exact=no guessed=no
// ARG3-NOT: guess:
// ARG3: end kernel _Z7loopArgPfi
// ARG100-LABEL: kernel _Z7loopArgPfi
// ARG100: ops: fp32=100 {{.*}}
// ARG100-DAG: loop: depth=1 {{.*}} trip=12 exact=no guessed=no
// ARG100-DAG: loop: depth=1 {{.*}} trip=4 exact=no guessed=no
__global__ void loopArg(float *out, int n) {
  for (int j = 0; j < n; j++)
    out[blockIdx.x] += 1.0f;
}

// A block-stride loop is still recognised as one (its count falls with
// blockDim.x), with its argument unknown.
// CHECK-LABEL: kernel _Z11blockStridePKfPfi
// CHECK: scales-with-block=yes
// CHECK: loop: depth=1 {{.*}}block-stride
__global__ void blockStride(const float *x, float *y, int n) {
  float acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += x[i];
  y[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
