// A mask made of a stated argument, on the left of the `and` (CUDA
// samples' bitonicMergeGlobal: pos = 2 * g - (g & (stride - 1)), which
// clang writes `and (stride - 1), g`): with stride = 2048 stated, the index
// moves one element a lane (a warp's 32 consecutive g stay within one
// stride), so the loads and stores are coalesced. The IR front end read
// only an integer on the right as the mask and took them for 32-sector
// gathers (2^2.6 above flipflop-ptx, which folds the mask in nvcc's code).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=1=2048 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=2048 %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z7andmaskPjj
// CHECK:       access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK:       access: global store bytes=4 count=1 pattern=coalesced stride=4 sectors=4
__global__ void andmask(unsigned *d, unsigned stride) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * g - (g & (stride - 1));
  d[pos] = d[pos + stride] + 1;
}
