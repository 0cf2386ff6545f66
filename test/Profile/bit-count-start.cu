// A binary search whose step starts at the next power of two of a stated
// length, `1 << (32 - __clz(L - 1))`, and halves to 0 (CUDA samples'
// mergeSort: generateSampleRanks, mergeRanksAndIndices, merge): both front
// ends guessed 16 passes where L = 1024 gives 11. `clz`/`popc` (PTX) and
// ctlz/cttz/ctpop (IR) of known values are now evaluated.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=1024 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1024 %t.ptx | FileCheck %s
// RUN: %profile -flipflop-args=2=100 %t.ll | FileCheck %s --check-prefix=L100
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=100 %t.ptx | FileCheck %s --check-prefix=L100

// CHECK-LABEL: kernel _Z6searchPjPKjj
// CHECK:       loop: depth=1 {{.*}} trip=11 exact={{yes|no}} guessed=no
// L100:        loop: depth=1 {{.*}} trip=8 exact={{yes|no}} guessed=no
__global__ void search(unsigned *out, const unsigned *data, unsigned L) {
  unsigned pos = 0;
  for (unsigned s = 1U << (32 - __builtin_clz(L - 1)); s > 0; s >>= 1) {
    unsigned np = pos + s < L ? pos + s : L;
    if (data[np - 1] < threadIdx.x)
      pos = np;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = pos;
}
