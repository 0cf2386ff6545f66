// Opt-in: -flipflop-apply-bounds writes the recommended bounds into the
// kernel, so the PTX carries .maxntid/.minnctapersm; a kernel with its
// author's __launch_bounds__ keeps them (FF031) and is never overridden.
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-apply-bounds=on -mllvm -flipflop-gpu=A100-SXM4-40GB -Rpass=flipflop -Rpass-missed=flipflop 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.off.ptx
// RUN: FileCheck %s --check-prefix=OFF < %t.off.ptx
#include "ff_cuda.h"

// REMARK: remark: [FF030] applied launch bounds to kernel 'scale(float*, int)': maxntid {{[0-9]+}}, minctasm {{[0-9]+}}
// PTX-LABEL: .entry _Z5scalePfi(
// PTX: .maxntid {{[0-9]+}}{{$}}
// OFF-LABEL: .entry _Z5scalePfi(
// OFF-NOT: .maxntid
// OFF: ret;
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 3.0f;
}

// REMARK: remark: [FF031] kernel 'authored(float*)' keeps its author's launch bounds; recommended {{[0-9]+}}, {{[0-9]+}} not applied
// PTX-LABEL: .entry _Z8authoredPf(
// PTX: .maxntid 64{{$}}
// PTX-NEXT: .minnctapersm 3
__global__ void __launch_bounds__(64, 3) authored(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
