// test/Report/file-local-kernels.test: a kernel local to this file; b.cu
// defines its own of the same (mangled) name.
#include "ff_cuda.h"

static __global__ void local_kernel(float *p) { p[threadIdx.x] *= 2.0f; }

namespace {
__global__ void anon_kernel(float *p) { p[threadIdx.x] += 1.0f; }
} // namespace

// An ordinary kernel defined in both files: one kernel, merged once.
template <int N> __global__ void shared_tpl(float *p) { p[threadIdx.x] = N; }
template __global__ void shared_tpl<1>(float *);
