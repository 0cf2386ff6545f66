// test/Report/file-local-kernels.test: a kernel local to this file, of the
// same name as a.cu's, doing other work.
#include "ff_cuda.h"

static __global__ void local_kernel(float *p) {
  float x = p[threadIdx.x];
  for (int i = 0; i < 64; ++i)
    x = x * 1.0001f + 0.5f;
  p[threadIdx.x] = x;
}

namespace {
__global__ void anon_kernel(float *p) { p[threadIdx.x] -= 1.0f; }
} // namespace

template <int N> __global__ void shared_tpl(float *p) { p[threadIdx.x] = N; }
template __global__ void shared_tpl<1>(float *);
