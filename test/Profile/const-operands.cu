// A constant at a fixed address is an operand of the instruction that uses
// it in SASS (FFMA R0, R1, c[0x3][0x8], R2), as a kernel parameter is: a
// filter in __constant__ memory read at indices known after unrolling
// costs no instruction (the held-out convolution's 225 taps: ptxas's
// .text is 552 instructions for 225 FFMA, 225 LDS and 225 ld.const in the
// PTX). Read at a run-time index (`w[k]`) it is an LDC of its own. Both
// front ends count so since session 35; before, every ld.const was an
// instruction on the dispatch port.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z5fixedPKfPf
// CHECK:       ops: fp32=8 {{.*}}load.global=8 store.global=1
// CHECK-NOT:   load.const
// CHECK-LABEL: kernel _Z7indexedPKfPfi
// CHECK:       ops: {{.*}} load.const=1{{ |$}}
#include "ff_cuda.h"

__attribute__((constant)) float w[8];

__global__ void fixed(const float *in, float *out) {
  int x = blockIdx.x * 256 + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s += in[x + j] * w[j];
  out[x] = s;
}

__global__ void indexed(const float *in, float *out, int k) {
  int x = blockIdx.x * 256 + threadIdx.x;
  out[x] = in[x] * w[k & 7];
}
