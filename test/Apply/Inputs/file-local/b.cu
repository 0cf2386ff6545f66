// test/Apply/file-local.test: kernels local to this file, of the same names
// as a.cu's.
#include "cuda_shim.h"

static __global__ void local_kernel(float *p) { p[threadIdx.x] = 3; }

namespace {
__global__ void anon_kernel(float *p) { p[threadIdx.x] = 4; }
} // namespace

void run_b(float *p) {
  local_kernel<<<1, 512>>>(p);
  anon_kernel<<<1, 1024>>>(p);
}
