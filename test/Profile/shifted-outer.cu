// An inner loop whose start an enclosing loop's shifted counter sets
// (CUDA samples' bitonicSortShared: `for (size = 2; size < n; size <<= 1)
// for (stride = size / 2; stride > 0; stride >>= 1)`): 1, 2, ..., 9 passes
// for n = 1024, 5 on average. The PTX front end pinned only counters
// stepped by a sum, so the inner loop was guessed at 16; it now also reads
// a counter shifted by a constant at each pass (counterAtPass). The IR
// front end still guesses it (ScalarEvolution has no recurrence for a
// shift), and the plugin takes the PTX's count.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=1024 %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z9shiftloopPjj
// CHECK:       loop: depth=1 line=0 trip=9 exact=yes guessed=no
// CHECK:       loop: depth=2 line=0 trip=5 exact=no guessed=no symbolic="the mean over the 9 passes of the enclosing loop at depth 1
// CHECK-NOT:   guess:
__global__ void shiftloop(unsigned *d, unsigned n) {
  __shared__ unsigned s[1024];
  s[threadIdx.x] = d[threadIdx.x];
  for (unsigned size = 2; size < n; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      s[threadIdx.x] += s[threadIdx.x ^ stride];
    }
  d[threadIdx.x] = s[threadIdx.x];
}
