// Rows of a tile that hold whole warps (t % 64, t / 64): the row index is
// the same for every lane of a warp, so a warp reads 32 contiguous floats
// whatever the row pitch is. Here the pitch is the kernel argument n, not
// known at compile time. Before session 17 the PTX front end lost the split
// at the multiplication by n and charged the load 32 sectors per request
// (the IR front end already had it coalesced: a 1.3x disagreement on
// examples/gemm_regblock.cu); LaneSplit::make, docs/MODEL.md, "Rows of a
// tile".
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z6tile64PKfPfi
// CHECK: access: global load bytes=4 count={{[0-9.]+}} pattern=coalesced stride=4 {{.*}}sectors=4
// CHECK: access: shared store bytes=4 count={{[0-9.]+}} pattern=coalesced stride=4
__global__ void __launch_bounds__(128)
    tile64(const float *__restrict__ B, float *out, int n) {
  __shared__ float s[4][64];
  int t = threadIdx.x;
  for (int e = t; e < 4 * 64; e += 128)
    s[e / 64][e % 64] =
        B[(unsigned long)(blockIdx.y * 4 + e / 64) * n + blockIdx.x * 64 + e % 64];
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[t / 64][t % 64] + s[2 + t / 64][t % 64];
}
