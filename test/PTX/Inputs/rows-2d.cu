// Row kernels whose row is not blockIdx.x, and rows walked by nvcc's runtime-unrolled loops: rows-2d.test.
// Softmax with a 2-D block: threadIdx.y picks the row, x walks it.
__global__ void softmax2d(const float *__restrict__ x, float *__restrict__ y, int n, int rows) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  if (r >= rows) return;
  const float *row = x + (size_t)r * n;
  float *out = y + (size_t)r * n;
  float m = -1e30f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, row[i]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += __expf(row[i] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  float inv = 1.f / s;
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = __expf(row[i] - m) * inv;
}
// Copy with the same 2-D shape (the floor).
__global__ void copy2d(const float *__restrict__ x, float *__restrict__ y, int n, int rows) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  if (r >= rows) return;
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[(size_t)r * n + i] = x[(size_t)r * n + i] * 2.f;
}
// Warp per row (llm.c / HeCBench style): row = global thread / 32.
__global__ void softmaxwarp(const float *__restrict__ x, float *__restrict__ y, int n, int rows) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= rows) return;
  const float *row = x + (size_t)r * n;
  float *out = y + (size_t)r * n;
  float m = -1e30f;
  for (int i = lane; i < n; i += 32) m = fmaxf(m, row[i]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float s = 0.f;
  for (int i = lane; i < n; i += 32) s += __expf(row[i] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  float inv = 1.f / s;
  for (int i = lane; i < n; i += 32) out[i] = __expf(row[i] - m) * inv;
}
__global__ void copywarp(const float *__restrict__ x, float *__restrict__ y, int n, int rows) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= rows) return;
  for (int i = lane; i < n; i += 32) y[(size_t)r * n + i] = x[(size_t)r * n + i] * 2.f;
}
// Rows walked with a compile-time stride (a fixed block of 256).
__global__ void __launch_bounds__(256) norm_fixed(const float *__restrict__ x, float *__restrict__ y, int n) {
  const float *row = x + (size_t)blockIdx.x * n;
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += 256) s += row[i] * row[i];
  __shared__ float red[8];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
  __syncthreads();
  s = 0.f;
  for (int k = 0; k < 8; ++k) s += red[k];
  float r = rsqrtf(s / n + 1e-6f);
  for (int i = threadIdx.x; i < n; i += 256) y[(size_t)blockIdx.x * n + i] = row[i] * r;
}
__global__ void __launch_bounds__(256) copy_fixed(const float *__restrict__ x, float *__restrict__ y, int n) {
  for (int i = threadIdx.x; i < n; i += 256) y[(size_t)blockIdx.x * n + i] = x[(size_t)blockIdx.x * n + i];
}
