// A loop over the whole problem stepped by a constant (a grid stride
// written as num_blocks * block_size_x, Kernel Tuner's reduction example),
// clang's forms (test/PTX/constant-grid-stride.ptx has nvcc's): the start
// reads blockIdx, so the count was guessed (16 passes of 26,042). Now
// block 0's count where block 1's confirms it, in the IR (SCEV evaluated
// at blockIdx 0 and 1) and in the PTX (clang's remainder of a loop
// unrolled 3 or 7 times: `mul.hi.u32`, `max.s32`, `selp` on a `setp`,
// then the unrolled part from where the remainder left the counter). The
// IR front end does not evaluate clang's remainder count (a `select` of a
// `urem`) and still guesses those two loops; the plugin then takes the
// PTX's counts (docs/MODEL.md, "Work counts in the plugin").
// A count that grows or shrinks with the block's index (`k < blockIdx.x`:
// 0 passes in block 0, 8 in block 8; `j = blockIdx.x; j < n`: n, then
// n - 8) is not taken for block 0's: blocks 0, 1 and 8 must count the
// same, or block 8 within 2 passes of block 0's 4 or more.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=80000000 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --arg 2=80000000 --dump-profile %t.ptx | FileCheck %s --check-prefixes=CHECK,PTX

// CHECK-LABEL: kernel _Z11constStrideILi1ELi64ELi48EEvPfPKfi
// CHECK:       load.global=26042 store.global=1
// CHECK:       loop: depth=1 line=0 trip=26042 exact=no guessed=no symbolic="block 0's, thread 0's (the count reads the block's index
// PTX-LABEL:   kernel _Z11constStrideILi3ELi64ELi48EEvPfPKfi
// PTX:         load.global=26042 store.global=1
// PTX:         loop: depth=1 line=0 trip=2 exact=no guessed=no symbolic="block 0's
// PTX-NEXT:    loop: depth=1 line=0 trip=8680 exact=no guessed=no symbolic="block 0's
// PTX-LABEL:   kernel _Z11constStrideILi7ELi32ELi2048EEvPfPKfi
// PTX:         load.global=1221 store.global=1
// PTX:         loop: depth=1 line=0 trip=3 exact=no guessed=no symbolic="block 0's
// PTX-NEXT:    loop: depth=1 line=0 trip=174 exact=no guessed=no symbolic="block 0's
// A stride of 48 blocks' worth, `i += 48 * blockDim.x`: the IR front end
// counts block 0's passes and fits them to blockDim (block-stride); the
// PTX front end, which does not count it, took the step for blockDim.x
// (80,000,000 / 256 = 312,500 passes, 48 times the IR's); now the step at
// the reference block.
// CHECK-LABEL: kernel _Z9strided48PfPKfi
// CHECK:       loop: depth=1 line=0 trip=6511 exact=no guessed=no block-stride
// CHECK-LABEL: kernel _Z10perBlockUpPfi
// CHECK:       loop: depth=1 line=0 trip=16 exact=no guessed=yes
// CHECK-LABEL: kernel _Z12perBlockDownPfPKfi
// CHECK:       loop: depth=1 line=0 trip=16 exact=no guessed=yes
template <int U, int B, int G>
__global__ void constStride(float *out, const float *in, int n) {
  int x = blockIdx.x * B + threadIdx.x;
  float s = 0.0f;
#pragma unroll U
  for (int i = x; i < n; i += G * B)
    s += in[i];
  out[x] = s;
}
template __global__ void constStride<1, 64, 48>(float *, const float *, int);
template __global__ void constStride<3, 64, 48>(float *, const float *, int);
template __global__ void constStride<7, 32, 2048>(float *, const float *, int);

__global__ void strided48(float *out, const float *in, int n) {
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += 48 * blockDim.x)
    s += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void perBlockUp(float *out, int n) {
  float s = 0.0f;
#pragma unroll 1
  for (int k = 0; k < (int)blockIdx.x; ++k)
    s += out[k * n + threadIdx.x];
  out[threadIdx.x] = s;
}

__global__ void perBlockDown(float *out, const float *in, int n) {
  float s = 0.0f;
#pragma unroll 1
  for (int j = blockIdx.x; j < n; ++j)
    s += in[j];
  out[threadIdx.x] = s;
}
