// A product that several adds share (`2.0 * c` in `n + s - 2c` and `e + w -
// 2c`, one fmul after CSE, as in the Rodinia/BAT hotspot stencil): NVPTX
// fuses it into each subtraction (aggressive FMA fusion): two FMAs and no
// multiply. The IR front end fused only a product of one use: it counted
// the multiply and the two subtractions (3 instructions, 3 FLOPs where the
// code has 2 and 4): 6 FP64 instructions and 7 FLOPs for this kernel's 5
// and 8, and 76 FP64 instructions too many a thread on a hotspot
// configuration where the PTX front end counted 456.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z7laplacePdPKd
// CHECK: ops: fp64=5 int=3 {{.*}}load.global=5 store.global=1
// CHECK: flops: fp32=0 fp64=8
__global__ void laplace(double *out, const double *in) {
  int i = threadIdx.x + 1;
  double c = in[i];
  double dy = (in[i + 64] + in[i - 64]) - 2.0 * c;
  double dx = (in[i + 1] + in[i - 1]) - 2.0 * c;
  out[i] = dy * 0.5 + dx;
}
