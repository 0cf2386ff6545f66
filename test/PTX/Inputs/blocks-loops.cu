// Loops over blocks and warp checks a review of session 49 tried:
// blocks-loops.test.
// A block per row, thread 0 doing the row's work.
__global__ void rows_t0(const float *__restrict__ x, float *__restrict__ y,
                        int rows) {
  for (int r = blockIdx.x; r < rows; r += gridDim.x)
    if (threadIdx.x == 0)
      y[r] = x[r] * 2.f;
}
// Virtual blocks: the bound reads blockDim.
__global__ void vblocks(const float *__restrict__ x, float *__restrict__ y,
                        int n) {
  int nb = (n + blockDim.x - 1) / blockDim.x;
  for (int b = blockIdx.x; b < nb; b += gridDim.x) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      y[i] = 2.f * x[i];
  }
}
// Split-K: chunks by gridDim.z, outputs by the x grid.
__global__ void splitk(const float *__restrict__ a, float *__restrict__ out,
                       int kchunks, int ld) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = blockIdx.z; k < kchunks; k += gridDim.z)
    s += a[(size_t)k * ld + o];
  atomicAdd(&out[o], s);
}
// Only the last warp of the block works: warp >= (blockDim.x - 1) / 32.
__global__ void onlylast(const float *__restrict__ x, float *__restrict__ y) {
  unsigned w = threadIdx.x >> 5, last = (blockDim.x - 1) >> 5;
  if (w >= last) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int j = 0; j < 64; ++j)
      s += x[(size_t)i * 64 + j];
    y[i] = s;
  }
}
// A loop over the launched threads, then one over blocks.
__global__ void two_phase(const float *__restrict__ x, float *__restrict__ y,
                          float *__restrict__ part, int n, int np) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = 2.f * x[i];
  for (int p = blockIdx.x; p < np; p += gridDim.x)
    if (threadIdx.x == 0)
      part[p] = 0.f;
}
// A 16 x 16 tile that checks the block's threads, not its shape.
__global__ void tr16(const float *__restrict__ x, float *__restrict__ y,
                     int n) {
  if (blockDim.x * blockDim.y != 256)
    return;
  __shared__ float t[16][17];
  int c = blockIdx.x * 16 + threadIdx.x, r = blockIdx.y * 16 + threadIdx.y;
  if (r < n && c < n)
    t[threadIdx.y][threadIdx.x] = x[(size_t)r * n + c];
  __syncthreads();
  c = blockIdx.y * 16 + threadIdx.x;
  r = blockIdx.x * 16 + threadIdx.y;
  if (r < n && c < n)
    y[(size_t)r * n + c] = t[threadIdx.x][threadIdx.y];
}
// A loop over rows by blocks whose pointers step beside the row counter by
// the launched threads (a row of blockDim.x elements a block).
__global__ void rows_ptr(const float *__restrict__ x, float *__restrict__ y,
                         int rows) {
  const float *p = x + blockIdx.x * blockDim.x + threadIdx.x;
  float *q = y + blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    *q = 2.f * *p;
    p += gridDim.x * blockDim.x;
    q += gridDim.x * blockDim.x;
  }
}
