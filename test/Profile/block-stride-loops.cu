// Block-stride loops as clang writes them in an attention-like kernel:
// `for (j = threadIdx.x; j < L; j += blockDim.x)` whose add has no `nsw`
// (SCEV cannot count it), whose blockDim.x is a phi of two reads (one per
// path into the loop), and whose PTX steps the counter through a round
// trip to 64 bits (`cvt.s64.s32 %rd, %r; cvt.u32.u64 %x, %rd; add.s32 %r,
// %x, %ntid`). With L and D stated, both front ends count each block-stride
// loop at the reference block (1024 / 256 = 4, 64 / 256 -> 1) and the
// remainder of the unrolled inner loop (D % 4 = 0) as no pass; without
// them, all three depth-1 loops are block-stride guesses and the inner
// ones are not (a float accumulator is no counter). Until session 30 the
// IR front end guessed two of these loops with the arguments stated and the
// PTX front end two others, and its remainder loop ran 16 guessed passes.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=1024,3=64 %t.ll | FileCheck %s --check-prefix=ARGS
// RUN: %profile %t.ll | FileCheck %s --check-prefix=NOARGS
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1024,3=64 %t.ptx | FileCheck %s --check-prefix=ARGS
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefix=NOARGS

// ARGS-LABEL: kernel _Z4rowsPKfPfii
// ARGS: ops: fp32=1293 {{.*}}load.global=1281
// ARGS: loop: depth=1 line=0 trip=4 exact=no guessed=no block-stride
// ARGS-DAG: loop: depth=2 line=0 trip=16 exact={{yes|no}} guessed=no
// ARGS-DAG: loop: depth=2 line=0 trip=0 exact={{yes|no}} guessed=no
// ARGS: loop: depth=1 line=0 trip=4 exact=no guessed=no block-stride
// ARGS: loop: depth=1 line=0 trip=1 exact=no guessed=no block-stride
// ARGS: loop: depth=2 line=0 trip=512 exact={{yes|no}} guessed=no

// NOARGS-LABEL: kernel _Z4rowsPKfPfii
// NOARGS: loop: depth=1 {{.*}}guessed=yes block-stride
// NOARGS-NOT: block-stride
// NOARGS: loop: depth=1 {{.*}}guessed=yes block-stride
// NOARGS: loop: depth=1 {{.*}}guessed=yes block-stride
// NOARGS-NOT: block-stride
// NOARGS: loop: depth=2
__global__ void rows(const float *__restrict__ K, float *__restrict__ O,
                     int L, int D) {
  extern __shared__ float S[];
  float Max = -1e30f;
  for (int J = threadIdx.x; J < L; J += blockDim.x) {
    float Dot = 0.0f;
    for (int E = 0; E < D; ++E)
      Dot += K[static_cast<unsigned long>(J) * D + E];
    S[J] = Dot;
    Max = Dot > Max ? Dot : Max;
  }
  __syncthreads();
  for (int J = threadIdx.x; J < L; J += blockDim.x)
    S[J] = (S[J] - Max) * 2.0f;
  __syncthreads();
  for (int E = threadIdx.x; E < D; E += blockDim.x) {
    float Acc = 0.0f;
    for (int J = 0; J < L; ++J)
      Acc += S[J] * K[static_cast<unsigned long>(J) * D + E];
    O[E] = Acc;
  }
}
