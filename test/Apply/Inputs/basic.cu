#include "cuda_shim.h"

// A plain kernel.
__global__ void scale(float *p, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= a;
}

static __global__ void local_kernel(float *p) { p[threadIdx.x] = 0; }

extern "C" __global__ void c_kernel(float *p) { p[threadIdx.x] = 1; }

namespace ns {
__global__ void declared(float *p, int n);
} // namespace ns

/* The definition, out of line. */
__global__ void
ns::declared(float *p, int n) {
  p[threadIdx.x] = n;
}

__global__ __attribute__((noinline)) void /* keep me */ with_attrs(float *p) {
  p[threadIdx.x] = 2;
}

// Not in the report: left alone.
__global__ void untouched(float *p) {}

void host(float *p, int n) {
  scale<<<(n + 255) / 256, 256>>>(p, 2.0f, n);
  local_kernel<<<1, 64>>>(p);
  c_kernel<<<1, 128>>>(p);
  ns::declared<<<1, dim3(8, 8)>>>(p, n);
  with_attrs<<<2, 32>>>(p);
  untouched<<<1, 1024>>>(p);
}
