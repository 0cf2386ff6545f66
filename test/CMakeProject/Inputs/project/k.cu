// Two kernels whose loops -O0 leaves non-canonical: a grid-stride loop and
// a fixed-count loop in a device function.

__global__ void saxpyGridStride(long n, float a, const float *__restrict__ x,
                                float *__restrict__ y) {
  const long stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < n; i += stride)
    y[i] = a * x[i] + y[i];
}

__device__ float rowSum(const float *row) {
  float s = 0;
  for (int j = 0; j < 512; ++j)
    s += row[j];
  return s;
}

__global__ void rowSums(const float *m, float *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    out[r] = rowSum(m + static_cast<long>(r) * 512);
}
