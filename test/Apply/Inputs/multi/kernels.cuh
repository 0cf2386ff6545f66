// A kernel defined in a header shared by two sources.
#include "cuda_shim.h"
__global__ void shared_k(float *p) { p[threadIdx.x] = 0; }
