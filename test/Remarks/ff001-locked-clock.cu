// FF001 names the lever of a locked-clock pick and how to set it (issue 15):
// a DRAM-bound kernel on H100 is cheapest in energy with the SM clock
// locked low; before, FF001 printed only the (default) power limit and the
// clock, so the reader could not tell a locked clock from DVFS.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// CHECK: remark: [FF001] kernel 'scale(float const*, float*, int)' on H100-SXM5-80GB: for energy use block {{[0-9]+}}, min-blocks 0, power limit 700 W, SM clock locked at [[F:[0-9]+]] MHz (nvidia-smi -lgc [[F]],[[F]], needs root); at block {{.*}} clock [[F]] MHz;
#include "ff_cuda.h"
__global__ void scale(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}
