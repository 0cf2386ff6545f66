// Row kernels of the ML kind, one block per row and block-stride loops over
// it (block-stride-rows.test): a softmax reads its row three times, a copy
// once; the unrolled copies step by 4 x blockDim.x with an exit each.
__global__ void softmax_rows(const float *__restrict__ x, float *__restrict__ y,
                             int n) {
  __shared__ float red[32];
  const float *row = x + (size_t)blockIdx.x * n;
  float *out = y + (size_t)blockIdx.x * n;
  float m = -1e30f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    m = fmaxf(m, row[i]);
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if ((threadIdx.x & 31) == 0)
    red[threadIdx.x >> 5] = m;
  __syncthreads();
  m = red[0];
  for (int w = 1; w < (blockDim.x >> 5); ++w)
    m = fmaxf(m, red[w]);
  __syncthreads();
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += __expf(row[i] - m);
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  if ((threadIdx.x & 31) == 0)
    red[threadIdx.x >> 5] = s;
  __syncthreads();
  s = 0.f;
  for (int w = 0; w < (blockDim.x >> 5); ++w)
    s += red[w];
  float inv = 1.f / s;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = __expf(row[i] - m) * inv;
}

__global__ void copy_rows(const float *__restrict__ x, float *__restrict__ y,
                          int n) {
  const float *row = x + (size_t)blockIdx.x * n;
  float *out = y + (size_t)blockIdx.x * n;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = row[i] * 2.f;
}

__global__ void copy_rows_unrolled(const float *__restrict__ x,
                                   float *__restrict__ y, int n) {
  const float *row = x + (size_t)blockIdx.x * n;
  float *out = y + (size_t)blockIdx.x * n;
#pragma unroll 4
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = row[i] * 2.f;
}
