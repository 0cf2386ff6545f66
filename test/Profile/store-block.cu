// A kernel indexed by threadIdx that never reads blockDim is written for one
// block; without a shared tile or a block-stride loop, its stores' address
// forms say which (session 20): blockIdx.x * 512 + threadIdx.x with outputs
// 128 apart is a 128-thread block with four outputs per thread. Before,
// both front ends swept free shapes (the PTX front end) or assumed 256
// threads (the plugin) and recommended blocks that compute wrong results.
// Neither the filter's taps (loads one element apart) nor a thread's own
// consecutive outputs (`out[2 * i + 1]`) are taken for the block; stores in
// rows of a pitch that does not repeat the block (`out[r * 100 + x]`)
// leave the shape unknown, as does a kernel that reads blockDim.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=A100-PCIE-40GB -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: flipflop-ptx --no-ptxas --dump-profile --block 1 %t.ptx | FileCheck %s --check-prefix=PTX
#include "ff_cuda.h"
#define W 4096

// REMARK-DAG: [FF001] kernel 'copy128(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 128,
// REMARK-DAG: [FF010] kernel 'copy128(float const*, float*)': block shape kept at 128: {{.*}}the stores index blockIdx.x * 128 + threadIdx.x: block 128 x 1 x 1
// PTX-LABEL: kernel _Z7copy128PKfPf
// PTX: fixed-shape: tile=yes block=128,1,1
__global__ void copy128(const float *in, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
  out[x] = 2.0f * in[x];
}

// 64 x 2 threads, 2 x 2 outputs each, a 7 x 7 filter.
// REMARK-DAG: [FF001] kernel 'filter(float const*, float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 64x2,
// REMARK-DAG: [FF010] kernel 'filter(float const*, float const*, float*)': block shape kept at 64x2: {{.*}}the stores index blockIdx.x * 128 + threadIdx.x, outputs 64 apart; blockIdx.y * 4 + threadIdx.y, outputs 2 apart: block 64 x 2 x 1
// PTX-LABEL: kernel _Z6filterPKfS0_Pf
// PTX: fixed-shape: tile=yes block=64,2,1
__global__ void filter(const float *in, const float *f, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
  int y = blockIdx.y * 4 + threadIdx.y;
  float s[2][2] = {};
  for (int i = 0; i < 7; i++)
#pragma unroll
    for (int j = 0; j < 7; j++)
#pragma unroll
      for (int ty = 0; ty < 2; ty++)
#pragma unroll
        for (int tx = 0; tx < 2; tx++)
          s[ty][tx] += in[(y + ty * 2 + i) * (W + 6) + x + tx * 64 + j] * f[i * 7 + j];
#pragma unroll
  for (int ty = 0; ty < 2; ty++)
#pragma unroll
    for (int tx = 0; tx < 2; tx++)
      out[(y + ty * 2) * W + x + tx * 64] = s[ty][tx];
}

// A transpose's writes: blockIdx.y over threadIdx.x, rows 8 apart.
// REMARK-DAG: [FF010] kernel 'transpose(float const*, float*)': block shape kept at 32x8: {{.*}}the stores index blockIdx.y * 32 + threadIdx.x; blockIdx.x * 32 + threadIdx.y, outputs 8 apart: block 32 x 8 x 1
// PTX-LABEL: kernel _Z9transposePKfPf
// PTX: fixed-shape: tile=yes block=32,8,1
__global__ void transpose(const float *in, float *out) {
  __shared__ float t[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    t[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * W + x] = t[threadIdx.x][threadIdx.y + j];
}

// Two consecutive outputs per thread: a thread's own elements.
// REMARK-DAG: [FF010] kernel 'pairs(float const*, float*)': block shape kept at 256: {{.*}}the stores index blockIdx.x * 256 + threadIdx.x: block 256 x 1 x 1
// PTX-LABEL: kernel _Z5pairsPKfPf
// PTX: fixed-shape: tile=yes block=256,1,1
__global__ void pairs(const float *in, float *out) {
  int i = (blockIdx.x * 256 + threadIdx.x) * 2;
  out[i] = in[i];
  out[i + 1] = -in[i + 1];
}

// Rows 100 elements apart do not repeat a block of 128: unknown, and the
// summary says the block it names is an assumption.
// REMARK-DAG: [FF001] kernel 'rows(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 256 (assumed: the code is written for one block shape that FlipFlop cannot read; state its thread count with __launch_bounds__),
// REMARK-DAG: [FF010] kernel 'rows(float const*, float*)': block shape kept at 256: indexes by threadIdx without reading blockDim; the shape is unknown, 256 threads assumed
// PTX-LABEL: kernel _Z4rowsPKfPf
// PTX-NOT: fixed-shape
// PTX: end kernel
__global__ void rows(const float *in, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
#pragma unroll
  for (int r = 0; r < 4; r++)
    out[r * 100 + x] = in[x] + r;
}

// blockDim read: the block is free.
// REMARK-DAG: [FF001] kernel 'generic(float const*, float*)' on A100-PCIE-40GB
// PTX-LABEL: kernel _Z7genericPKfPf
// PTX-NOT: fixed-shape
// PTX: end kernel
__global__ void generic(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = in[x];
}

// A ghost zone (Rodinia's pathfinder after 20 steps): 256 threads a block
// work through a shared tile of 256, the 216 inside store, so the blocks'
// outputs are 216 apart and overlap. 216 does not divide the tile, so the
// stores' spacing is not the block: both front ends keep the tile's 256
// (flipflop-ptx reads the tile's extent off its bytes and the accesses'
// element and row steps).
// REMARK-DAG: [FF010] kernel 'ghost(float const*, float*)': block shape kept at 256: {{.*}}shared tile [256]
// PTX-LABEL: kernel _Z5ghostPKfPf
// PTX: fixed-shape: tile=yes block=256,1,1 reason={{.*}}shared tile [256]
__global__ void ghost(const float *in, float *out) {
  __shared__ float t[256];
  int x = blockIdx.x * 216 - 20 + threadIdx.x;
  t[threadIdx.x] = in[x];
  __syncthreads();
  float v = t[threadIdx.x];
  if (threadIdx.x > 0 && threadIdx.x < 255)
    v += t[threadIdx.x - 1] + t[threadIdx.x + 1];
  if (threadIdx.x >= 20 && threadIdx.x < 236)
    out[x] = v;
}

// A 1-D stencil with a halo: a tile of 128 + 2 x 3 elements, outputs
// blockIdx.x * 128 + threadIdx.x. The tile is no whole number of warps (it
// is the block plus its halo), so it says nothing against the stores'
// spacing: block 128 in both front ends (a review of session 44's ghost-
// zone rule, which had left it unknown).
// REMARK-DAG: [FF010] kernel 'halo(float const*, float*)': block shape kept at 128: {{.*}}the stores index blockIdx.x * 128 + threadIdx.x: block 128 x 1 x 1
// PTX-LABEL: kernel _Z4haloPKfPf
// PTX: fixed-shape: tile=yes block=128,1,1
__global__ void halo(const float *in, float *out) {
  __shared__ float s[128 + 6];
  int x = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x + 3] = in[x];
  if (threadIdx.x < 3) {
    s[threadIdx.x] = in[x - 3];
    s[threadIdx.x + 131] = in[x + 128];
  }
  __syncthreads();
  float v = 0;
  for (int k = 0; k < 7; k++)
    v += s[threadIdx.x + k];
  out[x] = v;
}
