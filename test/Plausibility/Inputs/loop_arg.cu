// The reproducers' loop with its bound given as a kernel argument: compiled
// with FLIPFLOP_ARGS=1=N it is the same kernel with the bound written as N.
#include "ff_cuda.h"

__global__ void loopArg(float *out, int n) {
  for (int j = 0; j < n; j++)
    out[blockIdx.x] += 1.0f;
}
