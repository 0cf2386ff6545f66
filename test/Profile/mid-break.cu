// A loop that leaves in the middle of its pass (Rodinia hotspot's pyramid:
// `for (i = 0; i < n; i++) { b = f(a); __syncthreads(); if (i == n - 1)
// break; a = b; __syncthreads(); }`): the work ahead of the test runs n
// times, the work after it n - 1. nvcc tests in the header, behind the
// first half of the work, and the PTX front end counted the passes that go
// on (n - 1: 0 for n = 1, which dropped the whole stencil); it now counts
// the header's n, as the IR front end counts the loop.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=1=1 %t.ll | FileCheck %s --check-prefix=ONE
// RUN: %profile -flipflop-args=1=5 %t.ll | FileCheck %s --check-prefix=FIVE
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=1 %S/../PTX/Inputs/mid-break.nvcc.ptx | FileCheck %s --check-prefix=ONE
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=5 %S/../PTX/Inputs/mid-break.nvcc.ptx | FileCheck %s --check-prefix=FIVE

// ONE-LABEL:  kernel _Z8midbreakPfi
// ONE:        loop: depth=1 line={{[0-9]+}} trip=1 exact=
// FIVE-LABEL: kernel _Z8midbreakPfi
// FIVE:       loop: depth=1 line={{[0-9]+}} trip=5 exact=
__global__ void midbreak(float *g, int n) {
  __shared__ float a[256], b[256];
  int t = threadIdx.x;
  a[t] = g[t];
  __syncthreads();
  for (int i = 0; i < n; i++) {
    b[t] = a[t] + a[(t + 1) & 255];
    __syncthreads();
    if (i == n - 1)
      break;
    a[t] = b[t];
    __syncthreads();
  }
  g[t] = b[t];
}
