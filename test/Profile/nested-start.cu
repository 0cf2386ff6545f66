// An inner loop that starts at an outer block-stride loop's counter and
// that the compiler unrolls 8 times after a peeled prologue (CUDA samples'
// MonteCarloOneBlockPerOption: `for (iSum = tid; iSum < 256; iSum +=
// blockDim.x) for (i = iSum; i < pathN; i += 256)`). Both front ends
// guessed its count at 16 (MonteCarlo at 2.4-2.7 ms on an RTX A4000 where
// a hand count gives ~16 ms). The IR's count reads the counter the
// prologue leaves, a PHI merging the ways out of the branch that skips it:
// now evaluated along the way taken at each pass of the enclosing loop.
// The PTX's count reads the enclosing loop's counter stepped by blockDim:
// now taken at the reference block. pathN = 262144: 1024 iterations, no
// prologue (the IR's 128 unrolled passes; the PTX's 127.125 with its
// prologue's 7 copies counted once); 261000: 1020, 4 in the prologue.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=1=262144 %t.ll | FileCheck %s --check-prefix=IR
// RUN: %profile -flipflop-args=1=261000 %t.ll | FileCheck %s --check-prefix=IR2
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=262144 %t.ptx | FileCheck %s --check-prefix=IR
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=261000 %t.ptx | FileCheck %s --check-prefix=IR2

// IR-LABEL:  kernel _Z1kPfi
// IR:        loop: depth=1 {{.*}} trip=1 exact=no guessed=no block-stride
// IR-NEXT:   loop: depth=2 {{.*}} trip=0 exact=no guessed=no
// IR-NEXT:   loop: depth=2 {{.*}} trip=128 exact=no guessed=no
// IR-NOT:    guess:
// IR2:       loop: depth=2 {{.*}} trip=4 exact=no guessed=no
// IR2-NEXT:  loop: depth=2 {{.*}} trip=127 exact=no guessed=no
// IR2-NOT:   guess:
__global__ void k(float *out, int pathN) {
  float s = 0;
  for (int iSum = threadIdx.x; iSum < 256; iSum += blockDim.x) {
#pragma unroll 8
    for (int i = iSum; i < pathN; i += 256)
      s = s * 0.5f + i;
    out[blockIdx.x * 256 + iSum] = s;
  }
}
