// Global access patterns from the address's stride in threadIdx.x:
// coalesced (4 B apart: 4 sectors per warp), strided by a constant, and
// transposed (a row pitch: one sector per lane, 32 per request; the pitch
// n is not stated, so lanes are taken far apart, `stride=far`, in both front
// ends since session 30: the PTX front end called it unknown before).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z4copyPKfPfi
// CHECK: access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK: access: global store bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK: uncoalesced=0
__global__ void copy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// CHECK-LABEL: kernel _Z7strided
// CHECK: access: global load bytes=4 count=1 pattern=strided stride=8 sectors=8
// CHECK: access: global store bytes=4 count=1 pattern=coalesced stride=4 sectors=4
__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}

// CHECK-LABEL: kernel _Z10transposed
// CHECK: access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK: access: global store bytes=4 count=1 pattern=strided stride=far sectors=32
// CHECK: uncoalesced=0.5
__global__ void transposed(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  out[x * n + y] = in[y * n + x];
}
