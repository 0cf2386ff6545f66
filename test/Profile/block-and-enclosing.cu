// A loop whose bounds read both the block's index and an enclosing loop's
// counter: each thread tries `valsPerKey` keys from its own start, `start
// = ((blockIdx.x * blockDim.x + threadIdx.x) * 4 + k) * valsPerKey`, for k
// = 0..3 (BAT's MD5Hash, WORK_PER_THREAD_FACTOR = 4). Block 0's count at
// each pass of the k loop, which blocks 1 and 8 agree with: 10 passes
// (keyspace 10^6, 10 keys a thread). The IR front end evaluated the block's
// index or the enclosing pass, not both: guessed at 16. clang's PTX has
// the early exit (several exits, at most 10); nvcc's unrolled form:
// test/PTX/block-and-enclosing.ptx.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=1000000,3=10 %t.ll | FileCheck %s --check-prefix=IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1000000 --arg 3=10 %t.ptx | FileCheck %s --check-prefix=PTX

// IR-LABEL: kernel _Z9keySearchPijii
// IR:       loop: depth=1 line=0 trip=4 exact=yes guessed=no
// IR:       loop: depth=2 line=0 trip=10 exact=no guessed=no symbolic="block 0's, thread 0's
// IR-NOT:   guess:
// PTX-LABEL: kernel _Z9keySearchPijii
// PTX:       loop: depth=1 line=0 trip=4 exact=yes guessed=no
// PTX:       loop: depth=2 line=0 trip=10 exact=no guessed=no
// PTX-NOT:   guess:
__device__ unsigned mix(unsigned x) {
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return x ^ (x >> 15);
}
__global__ void keySearch(int *found, unsigned target, int keyspace,
                          int valsPerKey) {
#pragma unroll 1
  for (int k = 0; k < 4; ++k) {
    int start = ((blockIdx.x * blockDim.x + threadIdx.x) * 4 + k) * valsPerKey;
    for (int j = 0; j < valsPerKey && start + j < keyspace; ++j)
      if (mix(start + j) == target)
        found[0] = start + j;
  }
}
