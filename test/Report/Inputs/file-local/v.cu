// test/Report/report-names.test: one source compiled with other options.
#include "ff_cuda.h"

#ifndef A
#define A 1
#endif

__global__ void scale_by_a(float *p) { p[threadIdx.x] *= A; }
