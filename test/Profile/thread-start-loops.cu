// Block-stride loops whose counter starts at a thread index,
// `for (i = t; i < N; i += S)`: both front ends count thread 0's trip, a
// representative thread (exact=no, not guessed). The PTX front end took
// only constant starts, so it guessed 16 where the IR counted: it now reads
// the start at thread 0 (`strideSum`: clang's `add %r, %r, 128; setp.lt
// %r, 872` from tid - 128) and the counter clang copies back from its
// successor, tested before the step (`tileLoad`: `add %n, %i, 256; setp.lt
// %i, 512; mov %i, %n`). The demo's gemmRegBlock<16, 16> went from 3
// guessed loops in the PTX (1 in the IR) to 1, and the front ends' fastest
// times from 0.30 to 0.79 of each other.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefixes=CHECK,PTX

// CHECK-LABEL: kernel _Z8tileLoadILi16ELi16EEvPKfPfi
// CHECK: loop: depth=1 line=0 trip=3 exact=no guessed=no
// PTX-SAME: thread 0's
// CHECK-LABEL: kernel _Z9strideSumPKfPf
// CHECK: loop: depth=1 line=0 trip=8 exact=no guessed=no
// PTX-SAME: thread 0's
// CHECK-NOT: guess:
template <int BX, int BY>
__global__ void tileLoad(const float *in, float *out, int ld) {
  __shared__ float tile[768];
  int t = threadIdx.y * BX + threadIdx.x;
  for (int i = t; i < 768; i += BX * BY)
    tile[i] = in[(i / 64) * ld + (i % 64)];
  __syncthreads();
  out[t] = tile[(t * 3) % 768];
}
template __global__ void tileLoad<16, 16>(const float *, float *, int);

__global__ void strideSum(const float *in, float *out) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < 1000; i += 128)
    acc += in[i];
  out[threadIdx.x] = acc;
}
