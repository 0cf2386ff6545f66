// Bounds checks and in-block reuse (test/PTX/bounds-guards.ptx).
extern "C" __global__ void bounded(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

// A tiled kernel launched over more blocks than it has work for: each thread
// covers 4 outputs 128 apart, and the checks skip those beyond 10000.
extern "C" __global__ void tiled(const float *x, float *y) {
  int b = blockIdx.x * 128 * 4 + threadIdx.x;
  for (int t = 0; t < 4; t++) {
    int i = b + t * 128;
    if (i < 10000) {
      float s = 0;
      for (int k = 0; k < 64; k++)
        s += x[i + k * 10000];
      y[i] = s;
    }
  }
}

// Every thread along y reads the same column of a: L1 serves the block.
extern "C" __global__ void column_sum(const float *a, float *out, int k) {
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y * 8 + threadIdx.y;
  float s = 0;
  for (int j = 0; j < k; j++)
    s += a[j * 4096 + col] * row;
  out[row * 4096 + col] = s;
}
