// The loads that an outer loop reads again (KernelProfile::Rereads,
// docs/MODEL.md "Re-reads and the L2 capacity") come from the PTX the
// plugin emits, so both front ends check the same loads: clang unrolls the
// outer loop of 4 into copies and the inner one by 4, 16 loads of one
// address form (4 copies of each of 4 row offsets).
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r %clang_ff_nocuda --cuda-gpu-arch=sm_86 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=RTX-A4000
// RUN: cat %t.r/*.json | FileCheck %s --check-prefix=JSON
// RUN: flipflop-ptx --no-ptxas --json %t.ptx | FileCheck %s --check-prefix=JSON
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefix=FORM
#include "ff_cuda.h"

__global__ void sweep(const float *in, float *out) {
  float s = 0;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 256; ++c)
      s += in[c * 100000 + blockIdx.x * 32 + threadIdx.x];
  out[blockIdx.x * 32 + threadIdx.x] = s;
}

// JSON: "rereads": 16
// FORM-COUNT-16: form-load: bytes=4 count=64 line={{[0-9]+}} form: tid.x*4 ctaid.x*128 loops: 64@1600000
