// Reproducers of issue 19: loops bounded by a block dimension or by a kernel
// argument, which -O2 unrolls by 8 behind a guard that skips the unrolled
// loop when the bound is below 8, and the same kernels with the bound
// written as a constant (refLoop<N>) to compare against.
#include "ff_cuda.h"

__global__ void loopY(float *out) {
  for (int j = 0; j < blockDim.y; j++)
    out[blockIdx.x] += 1.0f;
}

__global__ void loopZ(float *out) {
  for (int j = 0; j < blockDim.z; j++)
    out[blockIdx.x] += 1.0f;
}

__global__ void loopArg(float *out, int n) {
  for (int j = 0; j < n; j++)
    out[blockIdx.x] += 1.0f;
}

template <int N> __global__ void refLoop(float *out) {
  for (int j = 0; j < N; j++)
    out[blockIdx.x] += 1.0f;
}

template __global__ void refLoop<1>(float *);
template __global__ void refLoop<2>(float *);
template __global__ void refLoop<3>(float *);
template __global__ void refLoop<4>(float *);
template __global__ void refLoop<8>(float *);
template __global__ void refLoop<16>(float *);
template __global__ void refLoop<32>(float *);
template __global__ void refLoop<64>(float *);
template __global__ void refLoop<100>(float *);
template __global__ void refLoop<128>(float *);
