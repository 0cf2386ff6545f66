// Neighbours clamped at the grid's edge, the stencil's idiom (Rodinia's
// hotspot3D: `W = (i == 0) ? c : c - 1`, `E = (i == nx - 1) ? c : c + 1`),
// and `max(i - 1, 0)` / `min(i + 1, nx - 1)`: every lane but one takes the
// neighbour, so each load is coalesced, 4 sectors a warp. Both front ends
// read them as 32-sector gathers (the PTX front end also the min / max
// forms): a DRAM-bound 3-D stencil's traffic 2.9x too high. The IR's select
// and zext of `i != nx - 1`, and clang's and nvcc's `selp` (nvcc's `c +
// selp(-1, 0, i != 0)`), take the arm most lanes take.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z4selwPKfPfi
// CHECK:       access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK:       sector-bytes=8
// CHECK-LABEL: kernel _Z4selePKfPfi
// CHECK:       access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK:       sector-bytes=8
// CHECK-LABEL: kernel _Z4maxwPKfPfi
// CHECK:       access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK:       sector-bytes=8
// CHECK-LABEL: kernel _Z4minePKfPfi
// CHECK:       access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4
// CHECK:       sector-bytes=8
// CHECK-LABEL: kernel _Z6centrePKfPfi
// CHECK:       access: global load bytes=4 count=1 pattern=unknown stride=0 sectors=32
__device__ __forceinline__ int imax(int a, int b) { return a > b ? a : b; }
__device__ __forceinline__ int imin(int a, int b) { return a < b ? a : b; }
__global__ void selw(const float *in, float *out, int nx) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int c = i + j * nx;
  int W = (i == 0) ? c : c - 1;
  out[c] = in[W];
}
__global__ void sele(const float *in, float *out, int nx) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int c = i + j * nx;
  int E = (i == nx - 1) ? c : c + 1;
  out[c] = in[E];
}
__global__ void maxw(const float *in, float *out, int nx) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int c = i + j * nx;
  out[c] = in[imax(i - 1, 0) + j * nx];
}
__global__ void mine(const float *in, float *out, int nx) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int c = i + j * nx;
  out[c] = in[imin(i + 1, nx - 1) + j * nx];
}
// Not a clamp: which lanes `i % 3 == 0` picks is no single lane.
__global__ void centre(const float *in, float *out, int nx) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int W = (i % 3 == 0) ? i * 5 : i;
  out[i] = in[W];
}
