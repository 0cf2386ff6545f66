// Double precision, transcendentals, vector loads and a warp shuffle.
__global__ void mathmix(const double *a, const float4 *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double d = a[i] * 3.0 + 1.0;
  float4 f = v[i];
  float s = __expf(f.x) + sqrtf(f.y) + f.z * f.w;
  s += __shfl_down_sync(0xffffffffu, s, 1);
  out[i] = s + (float)d;
}
