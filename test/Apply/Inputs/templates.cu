#include "cuda_shim.h"

// Instances agree: one bound on the template.
template <int Unroll>
__global__ void unrolled(float *p) {
  for (int i = 0; i < Unroll; ++i)
    p[threadIdx.x * Unroll + i] = 0;
}

// Instances disagree: no edit.
template <typename T> __global__ void axpy(T *y, const T *x, T a) {
  y[threadIdx.x] += a * x[threadIdx.x];
}

// One instance has no recommendation: no edit.
template <typename T> __global__ void fill(T *p) { p[threadIdx.x] = T(); }

// An explicit specialization is a kernel of its own.
template <> __global__ void fill<char>(char *p) { p[threadIdx.x] = 'a'; }

void host(float *f, double *d, int *i, char *c) {
  unrolled<2><<<1, 128>>>(f);
  unrolled<4><<<1, 256>>>(f);
  axpy<<<1, 128>>>(f, f, 2.0f);
  axpy<<<1, 128>>>(d, d, 2.0);
  fill<<<1, 64>>>(f);
  fill<<<1, 64>>>(i);
  fill<<<1, 64>>>(c);
}
