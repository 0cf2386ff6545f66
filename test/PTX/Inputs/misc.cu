// A grid-stride loop, a device function that is not inlined, atomics on
// shared and global memory, and a dynamically indexed local array.
__device__ __noinline__ float weight(float x, int k) {
  float w = 1.0f;
  for (int i = 0; i < 8; ++i)
    w = w * x + (float)(k + i);
  return w;
}

__global__ void histo(const float *in, unsigned *bins, int n, int sel) {
  __shared__ unsigned local[64];
  float scratch[16];
  if (threadIdx.x < 64)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float v = weight(in[i], i);
    for (int j = 0; j < 16; ++j)
      scratch[j] = v + j;
    unsigned b = (unsigned)scratch[sel & 15] & 63;
    atomicAdd(&local[b], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 64)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
