// libdevice's trigonometry: a fast path and, past |x| >= 105615 (float) or
// 2^31 (double), a Payne-Hanek argument reduction (a 6-pass loop over a
// table, a local array; for double a called function) that data of
// ordinary scale never takes.
__global__ void sinf_kernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = sinf(in[i]);
}

__global__ void sincos_kernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s, c;
  if (i < n) {
    sincosf(in[i], &s, &c);
    out[i] = s * c;
  }
}

__global__ void cos_kernel(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = cos(in[i]);
}
