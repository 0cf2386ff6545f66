// A tiled kernel whose block is a compile-time constant (Kernel Tuner's
// block_size_x/y) and never reads blockDim: its block-stride tile copy,
// `for (r = threadIdx.y; r < 22; r += 4) for (c = threadIdx.x; c < 78;
// c += 32)`, steps by the block's extents, 32 x 4. Before session 18 both
// front ends knew the shape was fixed by the tile but not which it was, and
// the sweep fell back to 256 x 1 x 1 ("for energy use block 256": a block
// the kernel cannot run with). Both now read 32 x 4 off the loops; an
// unrolled copy steps by a multiple (nvcc: 128 after a prologue of three
// copies; LLVM: 128 with a remainder loop stepping 32), so the step is
// divided by the copies, or the smallest step is taken.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --gpu A100-PCIE-40GB %t.ptx | FileCheck %s --check-prefix=SWEEP

// CHECK-LABEL: kernel _Z4convPKfPf
// CHECK:       fixed-shape: tile=yes block=32,4,1 reason={{.*}}block-stride loops step 32 x 4 x 1
// SWEEP:       fastest {{.*}} block 32x4
#define BX 32
#define BY 4
__global__ void conv(const float *in, float *out) {
  __shared__ float t[BY * 2 + 14][BX * 2 + 14];
  int x0 = blockIdx.x * BX * 2, y0 = blockIdx.y * BY * 2;
  for (int r = threadIdx.y; r < BY * 2 + 14; r += BY)
    for (int c = threadIdx.x; c < BX * 2 + 14; c += BX)
      t[r][c] = in[(y0 + r) * 4110 + x0 + c];
  __syncthreads();
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) {
      float s = 0.f;
      for (int i = 0; i < 15; i++)
        for (int j = 0; j < 15; j++)
          s += t[threadIdx.y + a * BY + i][threadIdx.x + b * BX + j];
      out[(y0 + threadIdx.y + a * BY) * 4096 + x0 + threadIdx.x + b * BX] = s;
    }
}
