// FLIPFLOP_DEFAULT_TRIP beyond the plausible 1e9 iterations per thread
// (1e15 overflowed counts, issue 17) or not finite is refused with a visible
// warning; the default (16) stays in force and the kernel is still analysed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env FLIPFLOP_DEFAULT_TRIP=1e15 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/a.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: warning: FlipFlop: invalid value '1e15' for option 'default_trip' (from env): expected a number from 1 to 1e9 (default kept)
// BIG: remark: [FF001] kernel 'sum(float*, int)' on A100-SXM4-40GB
// RUN: env FLIPFLOP_DEFAULT_TRIP=inf %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/b.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=INF
// INF: warning: FlipFlop: invalid value 'inf' for option 'default_trip'
// The same prediction as with the default itself.
// RUN: env FLIPFLOP_DEFAULT_TRIP=1e15 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/c.s -Rpass-analysis=flipflop 2>&1 | grep FF001 > %t/big.txt
// RUN: env FLIPFLOP_DEFAULT_TRIP=16 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/d.s -Rpass-analysis=flipflop 2>&1 | grep FF001 > %t/default.txt
// RUN: diff %t/big.txt %t/default.txt
#include "ff_cuda.h"
__global__ void sum(float *y, int n) {
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += y[j] * 1.5f;
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
