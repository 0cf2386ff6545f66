// A tree reduction in shared memory: `for (s = blockDim.x / 2; s > 0; s
// >>= 1) { if (tid < s) sdata[tid] += sdata[tid + s]; __syncthreads(); }`.
// The check's bound halves each pass, so no bounds check (affine in the
// indices) covers it, and both front ends counted the guarded add and its
// shared loads on every warp of every pass: 8 adds a thread at the
// reference block of 256 threads, where the warps with a thread below s
// run 4, 2, 1, 1, 1, 1, 1, 1 of 8 per pass: 12 / 64 of that, 1.5 adds.
// What only one side of such a check reaches now runs on that share of
// the warps (the mean over the loop's passes).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=524288 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=524288 %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z6reducePKfPfi
// CHECK:       ops: fp32=1.5 {{.*}} load.shared=4 store.shared=2.5
// CHECK:       loop: depth=1 {{.*}} trip=8 exact=no guessed=no
// A check whose bound does not change is left to the bounds checks.
// CHECK-LABEL: kernel _Z5fixedPKfPfi
// CHECK:       ops: fp32=8
// Interleaved addressing, `if (tid % (2 * s) == 0)` with s = 1 .. 128:
// every warp has a thread there while 2s <= 32, then 4, 2, 1 of 8:
// 5 + 0.5 + 0.25 + 0.125 adds. Each thread's predicate is evaluated.
// CHECK-LABEL: kernel _Z7reduce0PKfPfi
// CHECK:       ops: fp32=5.875
// A check on the lane (`lane < s`, s = 16 .. 1): every warp has lanes on
// both sides, so every warp runs the add on every pass.
// CHECK-LABEL: kernel _Z4lanePf
// CHECK:       ops: fp32=5
__global__ void reduce(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
__global__ void fixed(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < 200)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
__global__ void reduce0(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
__global__ void lane(float *data) {
  __shared__ float sh[256];
  unsigned tid = threadIdx.x, l = tid & 31;
  sh[tid] = data[tid];
  __syncthreads();
  for (unsigned s = 16; s > 0; s >>= 1) {
    if (l < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  data[tid] = sh[tid];
}
