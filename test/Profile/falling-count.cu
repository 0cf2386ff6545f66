// A loop from the thread's global index to a stated bound (the triangle of
// a correlation or covariance matrix, PolyBench's corr_kernel: `for (j2 =
// j1 + 1; j2 < m; j2++)`, j1 = blockIdx.x * blockDim.x + threadIdx.x) runs
// m - 1 - j1 passes: no one count stands for every block, and both front
// ends guessed 16 passes where the threads run 1,023 on average (m = 2048).
// The count is now the mean over the blocks that run it (thread 0's in
// each, at the reference block of 256 threads: 2047, 1791, ..., 255 over 8
// blocks, 1151), found by sampling the block's index until the count runs
// out; both front ends, and test/PTX/falling-count.ptx for nvcc's unrolled
// form. A count that rises with the index (`for (j = 0; j < j1; j++)`)
// depends on the launched grid and stays a guess.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=0=2048 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 0=2048 %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z8triangleiPfPKf
// CHECK:       loop: depth=1 line=0 trip=1151 exact=no guessed=no symbolic="the mean over the 8 blocks that run it, thread 0's (the count falls with the block's index
// CHECK-NOT:   guess:
// CHECK-LABEL: kernel _Z6risingiPfPKf
// CHECK:       guess:
__global__ void triangle(int m, float *out, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    float s = 0.0f;
    for (int j2 = j1 + 1; j2 < m; j2++)
      s += data[j2] * data[j1];
    out[j1] = s;
  }
}
__global__ void rising(int n, float *out, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < j1; j++)
    s += data[j];
  out[j1] = s;
}
