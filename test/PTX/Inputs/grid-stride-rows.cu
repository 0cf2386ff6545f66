// Grid-stride loops over rows and over elements: grid-stride-rows.test.
// Rows in a grid-stride loop (Apex's layer norm shape): a block per row at
// a time, rows b, b + gridDim.x, ...
__global__ void lnorm_gs(const float *__restrict__ x, float *__restrict__ y, int n, int rows) {
  __shared__ float red[32];
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    const float *row = x + (size_t)r * n;
    float s = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += row[i];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
    __syncthreads();
    s = 0.f;
    for (int k = 0; k < (blockDim.x >> 5); ++k) s += red[k];
    __syncthreads();
    float m = s / n;
    for (int i = threadIdx.x; i < n; i += blockDim.x) y[(size_t)r * n + i] = row[i] - m;
  }
}
__global__ void copy_gs(const float *__restrict__ x, float *__restrict__ y, int n, int rows) {
  for (int r = blockIdx.x; r < rows; r += gridDim.x)
    for (int i = threadIdx.x; i < n; i += blockDim.x) y[(size_t)r * n + i] = x[(size_t)r * n + i];
}
// A grid-stride loop over rows of threads (no unrolling: a row a pass).
__global__ void rows_gs(const float *__restrict__ x, float *__restrict__ y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float a = x[i];
    y[i] = a * 2.f;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] += x[i];
}
// Two grid-stride passes over the same data (the second re-reads x).
__global__ void twice_gs(const float *__restrict__ x, float *__restrict__ y, float *__restrict__ z, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) y[i] = x[i] * 2.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) z[i] = x[i] + 1.f;
}
__global__ void once_gs(const float *__restrict__ x, float *__restrict__ y, float *__restrict__ z, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) { float v = x[i]; y[i] = v * 2.f; z[i] = v + 1.f; }
}
