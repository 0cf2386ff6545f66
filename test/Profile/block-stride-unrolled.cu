// A block-stride loop unrolled 4 times: four copies with an exit each.
// clang's copies test `i + blockDim.x`, `i + 2 * blockDim.x`, ... (no
// constant bound of their own), nvcc's a chain of adds (test/PTX/
// block-stride-rows.test). The loop is counted from the exits' common
// bound over the chain's step: 1024 / (4 * blockDim.x), one pass at the
// reference block (it was guessed at 16). A search's loop, whose exit
// tests loaded data, stays guessed.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1024 %t.ptx | FileCheck %s
// CHECK-LABEL: kernel _Z18copy_rows_unrolledPKfPfi
// CHECK:       loop: depth=1 {{.*}} trip=1 exact=no guessed=no block-stride symbolic="1024 / (4 * blockDim.x)" stride-dims=x
// CHECK-LABEL: kernel _Z4findPKiPii
// CHECK:       loop: depth=1 {{.*}} trip=16 exact=no guessed=yes block-stride
__global__ void copy_rows_unrolled(const float *__restrict__ x,
                                   float *__restrict__ y, int n) {
  const float *row = x + (long)blockIdx.x * n;
  float *out = y + (long)blockIdx.x * n;
#pragma unroll 4
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = row[i] * 2.f;
}
__global__ void find(const int *__restrict__ x, int *__restrict__ out, int n) {
  const int *row = x + (long)blockIdx.x * n;
  int f = -1;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (row[i] == 7) {
      f = i;
      break;
    }
  if (f >= 0)
    out[blockIdx.x] = f;
}
