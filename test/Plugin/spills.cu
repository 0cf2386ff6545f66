// FF016: code that holds more values at once than a thread's 255
// registers spills; without ptxas (the plugin's default) the spill bytes
// are estimated from the emitted PTX (docs/REGISTERS.md, "Spills without
// ptxas"), and the remark costs them at the recommendation. 320
// accumulators live through a loop of 64 passes spill; 64 do not.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-gpu=A100-SXM4-40GB -Rpass-missed=flipflop 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=FF016
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-gpu=A100-SXM4-40GB -fsave-optimization-record -foptimization-record-file=%t.yaml
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
#include "ff_cuda.h"

template <int N> __global__ void accumulate(const float *a, float *out) {
  float acc[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc[k] = 0;
  for (int j = 0; j < 64; ++j) {
    float x = a[j * blockDim.x + threadIdx.x];
#pragma unroll
    for (int k = 0; k < N; ++k)
      acc[k] += x * float(k + 1);
  }
#pragma unroll
  for (int k = 0; k < N; ++k)
    out[k * blockDim.x + threadIdx.x] = acc[k];
}

template __global__ void accumulate<320>(const float *, float *);
template __global__ void accumulate<64>(const float *, float *);

// REMARK: remark: [FF016] kernel 'void accumulate<320>(float const*, float*)' holds more values at once than the 255 registers a thread gets, so they spill: {{[1-9][0-9]+}} bytes of spill code (estimated from the PTX), {{[1-9][0-9]*\.[0-9]}} KB a thread of local-memory traffic at block {{[0-9]+}}, up to {{[1-9][0-9]?}}% of the predicted time; keep fewer values live at once (fewer accumulators or a smaller tile a thread), and check ptxas -v for the binary you ship [-Rpass-missed=flipflop]

// YAML:      Name:{{ +}}FF016
// YAML-NEXT: DebugLoc:
// YAML:        - Registers:{{ +}}'255'
// YAML:        - SpillBytes:{{ +}}'{{[1-9][0-9]+}}'
// YAML:        - SpillSource:{{ +}}estimated from the PTX
// YAML:        - SpillSharePct:{{ +}}'{{[1-9][0-9]?}}'
// YAML:        - SpillBytesPerThread:{{ +}}'{{[1-9][0-9]+}}'
// YAML-NOT:  Name:{{ +}}FF016
