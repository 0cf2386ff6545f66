// Input of rank-dims.test.
__global__ void rankSum(const float *in, float *out) {
  float v = in[blockIdx.x * 256 + threadIdx.x] * 2.0f;
  unsigned rank =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if ((rank & 31) == 0)
    atomicAdd(out, v);
}

__global__ void transpose(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[x * n + y] = in[y * n + x];
}
