// Kernels whose block shape is fixed by a check in the code (blockdim-checks.test):
// an assert on blockDim (SGEMM-style template), an early return, an upper
// bound, and a branch on blockDim that is not a check.
#include <cassert>
template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__((BM * BN) / TM, 1)
sgemm1DBlocktiling(int M, int N, int K, const float *A, const float *B, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
  assert(BM * BK == blockDim.x);
  assert(BN * BK == blockDim.x);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM] = {0};
  for (int k0 = 0; k0 < K; k0 += BK) {
    As[threadIdx.x] = A[(threadIdx.x / BK) * K + threadIdx.x % BK];
    Bs[threadIdx.x] = B[(threadIdx.x / BN) * N + threadIdx.x % BN];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d) {
      float b = Bs[d * BN + threadCol];
      for (int t = 0; t < TM; ++t)
        acc[t] += As[(threadRow * TM + t) * BK + d] * b;
    }
    __syncthreads();
  }
  for (int t = 0; t < TM; ++t)
    C[(threadRow * TM + t) * N + threadCol] = acc[t];
}

void run(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 grid(N / 64, M / 64);
  sgemm1DBlocktiling<64, 64, 8, 8><<<grid, 512>>>(M, N, K, A, B, C);
}
__global__ void early(float *x, int n) {
  if (blockDim.x != 128)
    return;
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}
__global__ void bounded(float *x) {
  assert(blockDim.x <= 64);
  x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}
__global__ void reduce(const float *in, float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (blockDim.x >= 512 && t < 256)
    s[t] += s[t + 256];
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = s[0];
}
