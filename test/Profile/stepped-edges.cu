// Edges of loops run pass by pass (a review of session 43's change), both
// front ends:
// - clang's PTX ends the loop with `@%p bra EXIT; bra.uni HEADER`: a block
//   of one branch is no work after the test (10 passes of `s /= 2` from
//   1000, not 9);
// - a rotated loop's guard skips it: from n = -5, `s > 1` fails at entry
//   (0 passes; clang's unsigned test would run 32 from the wrapped value);
// - a bound moved by an enclosing loop's counter (s = k * 100 halved, k =
//   1..8: 7, 8, 9, 9, 9, 10, 10, 10 passes, 9 on average) and one that
//   reads the block's index (s = (blockIdx.x + 1) * 10 + n, 10 passes in
//   blocks 0, 1 and 8 with n = 1000) are counted by the IR front end too.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=1000 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1000 %t.ptx | FileCheck %s
// RUN: %profile -flipflop-args=2=-5 %t.ll | FileCheck %s --check-prefix=NEG
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=-5 %t.ptx | FileCheck %s --check-prefix=NEG

// CHECK-LABEL: kernel _Z8negHalvePKfPfi
// CHECK:       loop: depth=1 line=0 trip=10 exact=no guessed=no
// CHECK-LABEL: kernel _Z9roundedUpPKfPfi
// CHECK:       loop: depth=1 line=0 trip=10 exact=no guessed=no
// CHECK-LABEL: kernel _Z9enclosingPKfPfi
// CHECK:       loop: depth=1 line=0 trip=8 exact=yes guessed=no
// CHECK:       loop: depth=2 line=0 trip=9 exact=no guessed=no
// CHECK-LABEL: kernel _Z11byBlockStepPKfPfi
// CHECK:       loop: depth=1 line=0 trip=10 exact=no guessed=no symbolic="block 0's
// CHECK-NOT:   guess:
// NEG-LABEL: kernel _Z9roundedUpPKfPfi
// NEG:       loop: depth=1 line=0 trip=0 exact={{yes|no}} guessed=no
__global__ void negHalve(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = n; s != 0; s /= 2)
    acc += in[s & 1023];
  out[threadIdx.x] = acc;
}
__global__ void roundedUp(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = n; s > 1; s = (s + 1) / 2)
    acc += in[s & 1023];
  out[threadIdx.x] = acc;
}
__global__ void enclosing(const float *in, float *out, int n) {
  float acc = 0;
#pragma unroll 1
  for (int k = 1; k <= 8; k++)
    for (int s = k * 100; s > 0; s /= 2)
      acc += in[s];
  out[threadIdx.x] = acc;
}
__global__ void byBlockStep(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = (blockIdx.x + 1) * 10 + n; s > 1; s = (s + 1) / 2)
    acc += in[s & 1023];
  out[threadIdx.x] = acc;
}
