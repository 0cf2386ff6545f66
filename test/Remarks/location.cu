// Remarks point at the kernel's name: the line of the name (not the line of
// the opening brace, where LLVM's default location puts them) and the column
// of the name, with full debug info, line tables only, or none (-R alone).
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -g -Rpass-analysis=flipflop -Rpass-missed=flipflop 2>&1 | FileCheck %s
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -gline-tables-only -Rpass-analysis=flipflop -Rpass-missed=flipflop 2>&1 | FileCheck %s
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop -Rpass-missed=flipflop 2>&1 | FileCheck %s
// The YAML record carries the same location:
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -gline-tables-only -fsave-optimization-record -foptimization-record-file=%t/k.yaml
// RUN: FileCheck %s --check-prefix=YAML < %t/k.yaml
#include "ff_cuda.h"

// CHECK: location.cu:[[@LINE+5]]:5: remark: [FF001] kernel 'void scaleRows<2>(float*, float const*, int)'
// CHECK-NEXT: {{^ *}}[[@LINE+4]] |     scaleRows(float *out,
// CHECK-NEXT: {{^ *}}|     ^{{$}}
template <int N>
__global__ void __launch_bounds__(256)
    scaleRows(float *out,
              const float *in,
              int n) {
  for (int k = 0; k < n; ++k)
    out[blockIdx.x * blockDim.x + threadIdx.x] += N * in[k];
}
template __global__ void scaleRows<2>(float *, const float *, int);

// A name on the same line as the rest of the signature, after other words:
// CHECK: location.cu:[[@LINE+1]]:36: remark: [FF001] kernel 'saxpy'
extern "C" __global__ void /* k */ saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// YAML:      Name: FF001
// YAML-NEXT: DebugLoc: { File: {{.*}}location.cu{{.*}}, Line: 18, Column: 5 }
// YAML:      Name: FF001
// YAML-NEXT: DebugLoc: { File: {{.*}}location.cu{{.*}}, Line: 28, Column: 36 }
