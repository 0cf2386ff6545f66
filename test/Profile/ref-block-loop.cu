// A block copies a tile whose size follows blockDim, (blockDim.x + 4) x
// (blockDim.y + 4) floats, stepping by the block's thread count: the trip
// count is a function of the block shape. Both front ends count it at the
// reference block (256 x 1 x 1, thread 0): 260 * 5 = 1300 elements, 6
// passes, a block-stride loop whose work the model scales with the block.
// The PTX front end follows clang's `tid + i < bound` form, the thread
// index an offset of the counted i. Before, it guessed 16.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z4haloPKfPfi
// CHECK: shape: {{.*}}scales-with-block=yes
// CHECK: loop: depth=1 line={{[0-9]+}} trip=6 exact=no guessed=no block-stride
extern __shared__ float Tile[];
__global__ void halo(const float *In, float *Out, int W) {
  const int TW = blockDim.x + 4, TH = blockDim.y + 4;
  const int X0 = blockIdx.x * blockDim.x - 2, Y0 = blockIdx.y * blockDim.y - 2;
  for (int I = threadIdx.y * blockDim.x + threadIdx.x; I < TW * TH;
       I += blockDim.x * blockDim.y) {
    int Y = Y0 + I / TW, X = X0 + I % TW;
    Tile[I] = (X >= 0 && Y >= 0 && X < W) ? In[Y * W + X] : 0.0f;
  }
  __syncthreads();
  Out[(blockIdx.y * blockDim.y + threadIdx.y) * W + blockIdx.x * blockDim.x +
      threadIdx.x] = Tile[(threadIdx.y + 2) * TW + threadIdx.x + 2];
}
