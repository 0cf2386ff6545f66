// A counter shifted by a constant each pass (a tree reduction's stride),
// clang's forms (test/PTX/shift-counter.ptx has nvcc's): `shr.u32 %r, %r,
// 1; setp.eq.b32 %p, %r, 0` was guessed at 16 passes by the PTX front end;
// now 8 (blockDim.x / 2 at the reference block, 256 threads). The IR front
// end counts the constant start through SCEV; the blockDim start it does
// not (ScalarEvolution computes no exit count), and the plugin then takes
// the PTX's counts.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefix=IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefix=PTX

// PTX-LABEL: kernel _Z11blockReducePfPKfi
// PTX:       loop: depth=1 line=0 trip=8 exact=no guessed=no symbolic="at the reference block, 256 x 1 x 1, thread 0's
// PTX-LABEL: kernel _Z11fixedReducePfPKfi
// PTX:       loop: depth=1 line=0 trip=8 exact=yes guessed=no
// IR-LABEL:  kernel _Z11fixedReducePfPKfi
// IR:        loop: depth=1 line=0 trip=8 exact=yes guessed=no
__global__ void blockReduce(float *out, const float *in, int n) {
  extern __shared__ float sh[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sh[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sh[0];
}
__global__ void fixedReduce(float *out, const float *in, int n) {
  __shared__ float sh[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * 256 + threadIdx.x;
  sh[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
#pragma unroll 1
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (tid < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sh[0];
}
