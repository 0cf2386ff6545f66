// Block-shape dependence: a 16x16 shared tile indexed by threadIdx without
// reading blockDim fixes the shape; a blockDim-generic kernel does not.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | %profile | FileCheck %s
#include "ff_cuda.h"
#define TILE 16

// CHECK-LABEL: kernel _Z10gemm_tiled
// CHECK: shape: tid=x,y ntid=none blockdim=no
// CHECK: fixed-shape: tile=yes block=16,16,1 reason=indexes by threadIdx without reading blockDim; shared tile [16][16]
__global__ void gemm_tiled(const float *A, const float *B, float *C, int N) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < N / TILE; ++t) {
    As[ty][tx] = A[row * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// CHECK-LABEL: kernel _Z7generic
// CHECK: shape: tid=x ntid=x blockdim=yes
// CHECK-NOT: fixed-shape
// CHECK: end kernel
__global__ void generic(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

// CHECK-LABEL: kernel _Z7boundedPf
// CHECK: bounds: maxntid=128,1,1 reqntid=0,0,0 minctas=4
__global__ void __launch_bounds__(128, 4) bounded(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}

// A double buffer, [2][8][40]: threads index its inner two dimensions, an
// 8 x 40 tile (the block 40 x 8); the outer two were taken (8 x 2 threads).
// CHECK-LABEL: kernel _Z12doubleBufferPf
// CHECK: fixed-shape: tile=yes block=40,8,1 reason=indexes by threadIdx without reading blockDim; shared tile [2][8][40]
__global__ void doubleBuffer(float *out) {
  __shared__ float B[2][8][40];
  int tx = threadIdx.x, ty = threadIdx.y;
  B[0][ty][tx] = out[ty * 40 + tx];
  __syncthreads();
  B[1][ty][tx] = B[0][ty][tx] * 2.f;
  __syncthreads();
  out[ty * 40 + tx] = B[1][ty][tx];
}
