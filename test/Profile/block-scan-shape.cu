// A 1-D block-wide reduction written for a constant thread count (a static
// shared array behind barriers, blockDim never read; CUB's BlockScan and
// BlockReduce are written so) runs only at that block: both front ends
// hold its shape (the PTX front end since session 40; before, flipflop-ptx
// swept it to 768 threads on CUB's radix-sort exclusive sum, where the
// plugin held 256). Its __launch_bounds__ give the block.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefixes=CHECK
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefixes=CHECK
// RUN: flipflop-ptx --no-ptxas --gpu A100-SXM4-40GB --kernel _Z8blockSumPKfPf %t.ptx | FileCheck %s --check-prefix=SWEEP
#include "ff_cuda.h"

// CHECK-LABEL: kernel _Z8blockSumPKfPf
// CHECK: fixed-shape: tile=yes block=128,1,1 reason=indexes by threadIdx without reading blockDim
// CHECK-LABEL: end kernel _Z8blockSumPKfPf
// SWEEP: block shape held: {{.*}}indexes by threadIdx without reading blockDim
// SWEEP-NOT: {{^ +[0-9]+ +(64|256|512) }}
__global__ void __launch_bounds__(128) blockSum(const float *in, float *out) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
#pragma unroll
  for (unsigned o = 64; o > 0; o /= 2) {
    if (t < o)
      s[t] += s[t + o];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// k outputs a thread, 256 apart, k a kernel argument: the constant block
// is in the index arithmetic alone (thrust's transform kernel), where no
// store's address form gives it, and the author's bounds do; flipflop-ptx
// swept it before session 40.
// CHECK-LABEL: kernel _Z6stridePKfPfi
// CHECK: fixed-shape: tile=yes block=256,1,1 reason=indexes by threadIdx without reading blockDim
// CHECK-LABEL: end kernel _Z6stridePKfPfi
__global__ void __launch_bounds__(256) stride(const float *in, float *out,
                                              int k) {
#pragma unroll 1
  for (int j = 0; j < k; ++j) {
    int i = blockIdx.x * 256 * k + j * 256 + threadIdx.x;
    out[i] = in[i] * 2.0f;
  }
}

// One thread sets a flag: threadIdx.x is only tested against zero, which
// fixes no shape, bounds or not; both front ends sweep it (the IR front end, which holds
// a kernel that reads threadIdx without blockDim, held this one at an
// assumed 256 threads before session 40).
// CHECK-LABEL: kernel _Z7setFlagPi
// CHECK-NOT: fixed-shape
// CHECK-LABEL: end kernel _Z7setFlagPi
__global__ void __launch_bounds__(256) setFlag(int *p) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *p = 1;
}

// Rows of a dynamic shared tile, one a thread, exchanged behind a barrier
// (flash-attention-minimal's forward kernel: the launch's tile arguments
// give the block, which reads no blockDim): held by both front ends, at a
// shape neither can read; flipflop-ptx held only static shared arrays and
// swept it before session 41 (to 1,024 threads where the plugin kept 256).
// CHECK-LABEL: kernel _Z7rowTilePKfPfii
// CHECK: fixed-shape: tile=yes block=0,0,0 reason=indexes by threadIdx without reading blockDim
// CHECK-LABEL: end kernel _Z7rowTilePKfPfii
__global__ void rowTile(const float *in, float *out, int d, int n) {
  extern __shared__ float tile[];
  unsigned t = threadIdx.x;
  for (int x = 0; x < d; ++x)
    tile[t * d + x] = in[(blockIdx.x * n + t) * d + x];
  __syncthreads();
  float s = 0;
  for (int x = 0; x < d; ++x)
    s += tile[(t ^ 1) * d + x];
  out[blockIdx.x * n + t] = s;
}

// A 1-D tile of 1,024 floats that each thread fills with four (a float4
// stored transposed, siboehm's SGEMM kernels 6 and 7): 256 threads fill
// it. The IR front end took the tile's element count for the block (1,024
// threads) before session 41; now the elements over each thread's stores.
// CHECK-LABEL: kernel _Z5tileTPKfPfi
// CHECK: fixed-shape: tile=yes block=256,1,1
// CHECK-LABEL: end kernel _Z5tileTPKfPfi
struct alignas(16) F4 {
  float x, y, z, w;
};
__global__ void tileT(const float *A, float *C, int K) {
  __shared__ float As[8 * 128];
  const unsigned t = threadIdx.x;
  const unsigned row = t / 2, col = t % 2;
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += 8) {
    F4 v = reinterpret_cast<const F4 *>(A + (blockIdx.x * 128 + row) * K +
                                        k0)[col];
    As[(col * 4 + 0) * 128 + row] = v.x;
    As[(col * 4 + 1) * 128 + row] = v.y;
    As[(col * 4 + 2) * 128 + row] = v.z;
    As[(col * 4 + 3) * 128 + row] = v.w;
    __syncthreads();
    for (int d = 0; d < 8; ++d)
      acc += As[d * 128 + row];
    __syncthreads();
  }
  C[blockIdx.x * 256 + t] = acc;
}
