__global__ void twoexits(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 12; ++k) {
    if (in[k * n + x] < 0.0f)
      break;
    s += in[k * n + x] * 2.0f;
  }
  out[x] = s;
}
