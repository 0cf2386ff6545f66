// Loops whose bounds read gridDim: a block's share of the input (n /
// gridDim.x elements, BAT's scan `reduce`), and a grid-stride loop. With
// one grid stated (the plugin's launches, all of one grid) the share is
// counted there, block 0's: 16 passes of 256 threads over 262144 / 64
// elements; without it, guessed. The grid-stride loop stays the model's
// (passes = problem size over the launched threads).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=262144 %t.ll | FileCheck %s --check-prefix=NOGRID
// RUN: %profile -flipflop-args=2=262144 -flipflop-launch=256:64 %t.ll | FileCheck %s --check-prefix=GRID
// RUN: %profile -flipflop-args=2=262144 '-flipflop-launch=256:64;128:32' %t.ll | FileCheck %s --check-prefix=NOGRID

// NOGRID-LABEL: kernel _Z9regionSumPKfPfi
// NOGRID:       guess: loop{{.*}}gridDim
// GRID-LABEL: kernel _Z9regionSumPKfPfi
// GRID:       loop: depth=1 line=0 trip=16 exact=no guessed=no
// GRID-NOT:   guess:
// GRID-LABEL: kernel _Z10gridStridePKfPfi
// GRID:       grid-stride
__global__ void regionSum(const float *in, float *out, int n) {
  int region = n / gridDim.x;
  int start = blockIdx.x * region, stop = start + region;
  float sum = 0;
  for (int i = start + threadIdx.x; i < stop; i += 256)
    sum += in[i];
  out[blockIdx.x * 256 + threadIdx.x] = sum;
}
__global__ void gridStride(const float *in, float *out, int n) {
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
