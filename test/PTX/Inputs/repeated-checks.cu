// A bounds check that nvcc repeats in each copy of an unrolled loop, with
// halo loads behind thread-index checks: test/PTX/repeated-checks.test.
__global__ void planes(float *out, const float *in, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int i = y * nx + x;
  bool ok = x < nx && y < ny;
  float acc = 0;
#pragma unroll 8
  for (int z = 0; z < nz; ++z) {
    float v = 0;
    if (ok) v = in[i + z * nx * ny];
    if (threadIdx.y < 4 && ok) v += in[i + z * nx * ny + 4096];
    if (threadIdx.x < 4 && ok) v += in[i + z * nx * ny + 8192];
    acc = acc * 0.5f + v;
    if (ok) out[i + z * nx * ny] = acc;
  }
}
