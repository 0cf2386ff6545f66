// A 16x16 shared-memory tiled matrix multiply with a counted inner loop,
// __launch_bounds__, a barrier and a dynamic shared buffer kernel.
#define TILE 16
__global__ void __launch_bounds__(256, 2)
matmul(const float *A, const float *B, float *C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < N / TILE; ++t) {
    As[ty][tx] = A[row * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

extern __shared__ float dynbuf[];
__global__ void reduce(const float *in, float *out, int n) {
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  dynbuf[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      dynbuf[tid] += dynbuf[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = dynbuf[0];
}
