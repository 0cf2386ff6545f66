// An inner loop from an outer block-stride counter, unrolled 8 times after
// a peeled prologue (test/PTX/nested-start.test; the IR's and clang's PTX
// forms: test/Profile/nested-start.cu).
__global__ void k(float *out, int pathN) {
  float s = 0;
  for (int iSum = threadIdx.x; iSum < 256; iSum += blockDim.x) {
#pragma unroll 8
    for (int i = iSum; i < pathN; i += 256)
      s = s * 0.5f + i;
    out[blockIdx.x * 256 + iSum] = s;
  }
}
