// A tiled stencil for the profile and remark tests: an F x F filter in
// constant memory over a shared tile of BY * TY + F - 1 rows and
// BX * TX + F - 1 columns, TY x TX outputs a thread (rows ty + y * BY + i,
// columns tx + x * BX + j). With GUARDED each output is stored under a
// bounds check (rows below 4000, columns below 4000). The includer
// defines F, BX, BY, TX, TY and GUARDED; include ff_cuda.h first.
__attribute__((constant)) float w[F * F];

__global__ void stencil(const float *in, float *out) {
  __shared__ float sh[BY * TY + F - 1][BX * TX + F - 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int by = blockIdx.y * BY * TY, bx = blockIdx.x * BX * TX;
#pragma unroll
  for (int i = ty; i < BY * TY + F - 1; i += BY)
#pragma unroll
    for (int j = tx; j < BX * TX + F - 1; j += BX)
      sh[i][j] = in[(by + i) * 4100 + bx + j];
  __syncthreads();
  float s[TY][TX] = {};
#pragma unroll
  for (int i = 0; i < F; ++i)
#pragma unroll
    for (int j = 0; j < F; ++j)
#pragma unroll
      for (int y = 0; y < TY; ++y)
#pragma unroll
        for (int x = 0; x < TX; ++x)
          s[y][x] += sh[ty + y * BY + i][tx + x * BX + j] * w[i * F + j];
#pragma unroll
  for (int y = 0; y < TY; ++y)
#pragma unroll
    for (int x = 0; x < TX; ++x)
#if GUARDED
      if (by + ty + y * BY < 4000 && bx + tx + x * BX < 4000)
#endif
        out[(by + ty + y * BY) * 4096 + bx + tx + x * BX] = s[y][x];
}
