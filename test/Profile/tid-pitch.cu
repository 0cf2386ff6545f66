// Tiled kernels written for one 2-D block that read neither blockDim nor
// state .reqntid: which block? Until session 24 the PTX front end took the
// launch bounds' threads as a row (256 x 1 x 1, threadIdx.y always 0: a
// block the kernel cannot run with) while the IR front end split them by
// the largest shared tile's row, a padded row (65) giving 32 x 8. Both now
// read the same evidence (guessTileBlock):
// - `reg`: a flattened thread id `threadIdx.y * 16 + threadIdx.x` (and its
//   tile rows, `As[k][ty + 16 i]`): rows of 16 threads, the bounds' 256 of
//   them -> 16 x 16;
// - `rows`: a tile copy stepping threadIdx.y by 8 (the bounds' 256 -> 32
//   wide), its tile padded to 33 (a pitch that does not divide 256);
// - `bare`: threadIdx.y and a shared tile, nothing else: rows of a warp
//   (32 x 8), not 256 x 1.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --gpu A100-PCIE-40GB %t.ptx | FileCheck %s --check-prefix=SWEEP

// CHECK-LABEL: kernel _Z3regPKfS0_Pfi
// CHECK:       fixed-shape: tile=yes block=16,16,1 reason={{.*}}threadIdx.y * 16 + threadIdx.x indexes rows of 16 threads, __launch_bounds__ 256
// CHECK-LABEL: kernel _Z4rowsPKfPfi
// CHECK:       fixed-shape: tile=yes block=32,8,1 reason={{.*}}block-stride loops step 8 threads, __launch_bounds__ 256 give threadIdx.x 32
// CHECK-LABEL: kernel _Z4barePKfPfi
// SWEEP-NOT:   block 256x1
// SWEEP:       kernel reg(
// SWEEP:       fastest {{.*}} block 16x16
// SWEEP:       kernel rows(
// SWEEP:       fastest {{.*}} block 32x8
// SWEEP:       kernel bare(
// SWEEP:       fastest {{.*}} block 32x8

__global__ void __launch_bounds__(256)
    reg(const float *A, const float *B, float *C, int K) {
  __shared__ float As[16][65];
  __shared__ float Bs[16][64];
  int Tid = threadIdx.y * 16 + threadIdx.x;
  float Acc[4][4] = {};
  for (int K0 = 0; K0 < K; K0 += 16) {
    for (int E = Tid; E < 64 * 16; E += 256) {
      As[E % 16][E / 16] = A[(blockIdx.y * 64 + E / 16) * K + K0 + E % 16];
      Bs[E / 64][E % 64] = B[(K0 + E / 64) * 4096 + blockIdx.x * 64 + E % 64];
    }
    __syncthreads();
    for (int P = 0; P < 16; ++P)
      for (int I = 0; I < 4; ++I)
        for (int J = 0; J < 4; ++J)
          Acc[I][J] += As[P][threadIdx.y + I * 16] * Bs[P][threadIdx.x + J * 16];
    __syncthreads();
  }
  for (int I = 0; I < 4; ++I)
    for (int J = 0; J < 4; ++J)
      C[(blockIdx.y * 64 + threadIdx.y + I * 16) * K + blockIdx.x * 64 +
        threadIdx.x + J * 16] = Acc[I][J];
}

__global__ void __launch_bounds__(256) rows(const float *In, float *Out, int N) {
  __shared__ float T[32][33];
  int X = blockIdx.x * 32 + threadIdx.x;
#pragma unroll 1
  for (int R = threadIdx.y; R < 32; R += 8)
    T[R][threadIdx.x] = In[(blockIdx.y * 32 + R) * N + X];
  __syncthreads();
  X = blockIdx.y * 32 + threadIdx.x;
#pragma unroll 1
  for (int R = threadIdx.y; R < 32; R += 8)
    Out[(blockIdx.x * 32 + R) * N + X] = T[threadIdx.x][R];
}

__global__ void __launch_bounds__(256) bare(const float *In, float *Out, int N) {
  __shared__ float T[8][40];
  T[threadIdx.y][threadIdx.x] = In[threadIdx.y * N + blockIdx.x * 40 + threadIdx.x];
  __syncthreads();
  Out[threadIdx.y * N + blockIdx.x * 40 + threadIdx.x] = T[7 - threadIdx.y][threadIdx.x];
}
