// test/Apply/file-local.test: kernels local to this file; b.cu defines its
// own of the same (mangled) names.
#include "cuda_shim.h"

static __global__ void local_kernel(float *p) { p[threadIdx.x] = 1; }

namespace {
__global__ void anon_kernel(float *p) { p[threadIdx.x] = 2; }
} // namespace

void run_a(float *p) {
  local_kernel<<<1, 128>>>(p);
  anon_kernel<<<1, 64>>>(p);
}
