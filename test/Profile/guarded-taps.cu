// A stencil's guarded taps: clang computes each tap's address afresh in its
// own guarded block (%rd5 = %rd4 + 4x for x - 1 and x, %rd6 = %rd4 + 4(x + 1)
// for x + 1), so the PTX front end, which grouped siblings by the address
// register, saw three loads of three bases, each charged its own sectors,
// where the IR front end sees one base at -4, +0, +4 (SCEV strips the
// constant). Global siblings are now keyed by the address's value (a
// polynomial over opaque registers, its constant term the offset), and the
// two front ends agree (conv2dDirect<1..3> in examples/: plugin / PTX
// fastest time 0.79 / 0.66 / 0.63 before, within 5% after).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z4tapsPKfPfi
// CHECK: access: global load bytes=4 count=1 {{.*}} base=[[B:[0-9]+]]-4{{$}}
// CHECK: access: global load bytes=4 count=1 {{.*}} base=[[B]]+0{{$}}
// CHECK: access: global load bytes=4 count=1 {{.*}} base=[[B]]+4{{$}}
__global__ void taps(const float *__restrict__ in, float *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w)
    return;
  float acc = 0.0f;
#pragma unroll
  for (int j = -1; j <= 1; ++j) {
    int xx = x + j;
    if (xx >= 0 && xx < w)
      acc += in[xx] * (j + 2);
  }
  out[x] = acc;
}
