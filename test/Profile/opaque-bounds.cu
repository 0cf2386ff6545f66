// Bounds ScalarEvolution keeps opaque: a signed division of an argument
// (`n / 256` of an int is an `sdiv`; BAT's nbody, `blocks = n /
// (BLOCK_SIZE * VECTOR_TYPE)`), a signed remainder, and a select. Their
// operands' SCEVs are evaluated with the stated arguments: 65536 / 256 =
// 256 passes, 1000 % 7 = 6, and 1000 > 100 ? 1000 / 3 : 1000 = 333. They
// were guessed at 16 ("depends on values computed in the kernel").
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=1=65536 %t.ll | FileCheck %s --check-prefix=DIV
// RUN: %profile -flipflop-args=1=1000 %t.ll | FileCheck %s --check-prefix=OTHER

// DIV-LABEL: kernel _Z6blocksPfi
// DIV:       loop: depth=1 line=0 trip=256 exact=no guessed=no
// DIV-NOT:   guess:
// OTHER-LABEL: kernel _Z9remainderPfi
// OTHER:       loop: depth=1 line=0 trip=6 exact=no guessed=no
// OTHER-NOT:   guess:
// OTHER-LABEL: kernel _Z8selectedPfi
// OTHER:       loop: depth=1 line=0 trip=333 exact=no guessed=no
// OTHER-NOT:   guess:
__global__ void blocks(float *x, int n) {
  int b = n / 256;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < b; i++)
    acc += x[i * 256 + threadIdx.x];
  x[threadIdx.x] = acc;
}
__global__ void remainder(float *x, int n) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < n % 7; i++)
    acc += x[i * 256 + threadIdx.x];
  x[threadIdx.x] = acc;
}
__global__ void selected(float *x, int n) {
  int m = n > 100 ? n / 3 : n;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < m; i++)
    acc += x[i * 256 + threadIdx.x];
  x[threadIdx.x] = acc;
}
