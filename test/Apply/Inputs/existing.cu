#include "cuda_shim.h"

// Already as recommended.
__global__ void __launch_bounds__(256, 2) same(float *p) {}

// Differs from the recommendation: changed only with --update.
__global__ void __launch_bounds__(128) older(float *p) {}

// Written on the declaration: that is where it is updated.
__global__ void __launch_bounds__(64) on_decl(float *p);
__global__ void on_decl(float *p) {}

// GNU attribute spelling and a third argument (max blocks per cluster).
__global__ void __attribute__((launch_bounds(128, 1, 4))) gnu(float *p) {}

// Depends on a template parameter: never rewritten.
template <int N> __global__ void __launch_bounds__(N) tmpl(float *p) {}

void host(float *p) {
  same<<<1, 256>>>(p);
  older<<<1, 128>>>(p);
  on_decl<<<1, 64>>>(p);
  gnu<<<1, 128>>>(p);
  tmpl<128><<<1, 128>>>(p);
}
