// Counters that a prologue branch may step before the loop (Parboil's
// mri-q: `if (numK % 2) { ...; kIndex++; kGlobalIndex++; }` and then `for
// (; kIndex < 1024 && kGlobalIndex < numK; kIndex += 2, kGlobalIndex +=
// 2)`): each counter has two starts, and both front ends guessed 16
// passes. With numK stated the branch is decided, so the start that runs
// is the one whose definition reaches the loop along the branches' taken
// ways (liveInto): 512 passes for numK = 2048 (even: no prologue) and for
// 2047 (odd: the counters start at 1). The plugin takes the PTX's count
// (its IR guesses; FF012 says so).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=2048,2=0 %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=2047,2=0 %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z7andloopPfii
// CHECK:       loop: depth=1 line=0 trip=512 exact=no guessed=no
// CHECK-NOT:   guess:
__global__ void andloop(float *q, int n, int b) {
  float s = 0;
  int a = 0;
  if (n % 2) {
    s += q[0] * q[b];
    a++;
    b++;
  }
  for (; (a < 1024) && (b < n); a += 2, b += 2)
    s += q[a] * q[a + 1];
  q[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
