// A counter compared as a float against a logarithm (Rodinia backprop's
// `for (i = 1; i <= __log2f(HEIGHT); i++)`): clang keeps `fcmp ult
// (lg2.approx 16.0), (uitofp i)`, which ScalarEvolution does not count, and
// the IR front end guessed 16 passes where nvcc folds the bound to 4. The
// loop is now run pass by pass with the float compare evaluated (log2 and
// exp2 exactly, as NVIDIA's approximations give them for powers of two).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: %profile -flipflop-args=1=10 %t.ll | FileCheck %s --check-prefix=ROUND

// CHECK-LABEL: kernel _Z2l2Pf
// CHECK:       loop: depth=1 line=0 trip=4 exact=no guessed=no symbolic="stepped pass by pass
// CHECK-NOT:   guess:
// CHECK-LABEL: kernel _Z6scaledPfi
// Each value is rounded to float as the GPU computes it: n * 0.1f at n = 10
// is 1.0f, so `i < n * 0.1f` runs once (in doubles, twice).
// ROUND-LABEL: kernel _Z6scaledPfi
// ROUND:       loop: depth=1 line=0 trip=1 exact=no guessed=no
__global__ void l2(float *w) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = w[ty * 16 + tx];
  __syncthreads();
  for (int i = 1; i <= __nvvm_lg2_approx_f(16.0f); i++) {
    int p = 1 << i;
    if (ty % p == 0)
      s[ty][tx] += s[ty + p / 2][tx];
    __syncthreads();
  }
  w[ty * 16 + tx] = s[ty][tx];
}
__global__ void scaled(float *a, int n) {
  for (int i = 0; i < n * 0.1f; ++i)
    a[i * 7 & 1023] += 1.0f;
}
