// A flattened thread id cut into the rows of a tile (t % 8, t / 8, as
// CLBlast's and most tiled loaders' global-to-shared copies do): each row of
// 8 lanes reads 128 contiguous bytes, so a warp request of 4 rows moves 16
// sectors, not one per lane. Both front ends keep the split
// (MemAccess::LaneMod; docs/MODEL.md, "Rows of a tile"): the IR from the
// and/lshr LLVM makes of t % 8 and t / 8, the PTX also through the `or`
// NVPTX writes for the disjoint add of the column.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z5stagePKDv4_fPS_
// CHECK: access: global load bytes=16 count=1 pattern=strided stride=16 rows=8x16384 sectors=16
// CHECK: access: shared store bytes=16 count=1 pattern=coalesced stride=16
// CHECK: access: global store bytes=16 count=1 pattern=coalesced stride=16 sectors=16
typedef float F4 __attribute__((ext_vector_type(4)));
__global__ void stage(const F4 *in, F4 *out) {
  __shared__ F4 tile[16][8];
  int t = threadIdx.x + 16 * threadIdx.y; // a 16 x 8 block
  int col = t % 8, row = t / 8;
  tile[row][col] = in[(blockIdx.x * 16 + row) * 1024 + col];
  __syncthreads();
  out[blockIdx.x * 128 + t] = tile[col * 2 % 16][row % 8];
}
