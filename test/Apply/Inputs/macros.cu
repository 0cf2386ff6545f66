#include "cuda_shim.h"

// The whole kernel comes from a macro: not edited.
#define DEFINE_ZERO(NAME)                                                      \
  __global__ void NAME(float *p) { p[threadIdx.x] = 0; }
DEFINE_ZERO(zero_a)

// Only the specifiers come from a macro: the name is in the file.
#define KERNEL __global__ void
KERNEL negate(float *p) { p[threadIdx.x] = -p[threadIdx.x]; }

// The bound itself comes from a macro: reported, never changed.
#define BOUNDS __launch_bounds__(128)
__global__ void BOUNDS bounded_by_macro(float *p) { p[threadIdx.x] = 1; }

void host(float *p) {
  zero_a<<<1, 32>>>(p);
  negate<<<1, 32>>>(p);
  bounded_by_macro<<<1, 32>>>(p);
}
