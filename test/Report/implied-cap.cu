// A block the code fixes (a 32 x 32 shared tile, 1,024 threads) lets a
// thread hold 64 registers; the kernel wants 124 (96 accumulators), so
// every configuration of the sweep runs under that implied cap, though none
// has a min-blocks cap. With ptxas on, the driver runs ptxas under the
// implied cap too and the report carries the fact (64 registers, 1000
// bytes spilled: resources.cap_facts), which the predictions at that block
// use instead of the spill estimate. Before session 20 only explicit
// min-blocks caps were asked for, and this kernel had no fact.
// REQUIRES: ptxas, cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: env FLIPFLOP_PTXAS=on FLIPFLOP_REPORT_DIR=%t %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/k.s --cuda-path=%cuda_path
// RUN: %python -c "import json, glob; k = json.load(open(glob.glob(r'%t/*.json')[0]))['kernels'][0]; print('registers', k['resources']['registers'], 'facts', [(f['cap'], f['registers']) for f in k['resources'].get('cap_facts', [])])" | FileCheck %s
// CHECK: registers {{(6[5-9]|[7-9][0-9]|1[0-9][0-9]|2[0-5][0-9])}} facts [(64, 64)]
#include "ff_cuda.h"
#define N 96
__global__ void wide(const float *in, float *out, int k) {
  __shared__ float t[32][32];
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i)
    acc[i] = in[(blockIdx.x * 32 + threadIdx.y) * N + i];
  for (int j = 0; j < k; ++j) {
    t[threadIdx.y][threadIdx.x] = in[j * 1024 + threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < N; ++i)
      acc[i] = acc[i] * t[threadIdx.x][i % 32] + t[i % 32][threadIdx.y];
    __syncthreads();
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i)
    s += acc[i] * acc[(i + 7) % N];
  out[(blockIdx.x * 32 + threadIdx.y) * 32 + threadIdx.x] = s;
}
