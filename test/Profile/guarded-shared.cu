// A work-efficient scan of 512 floats a block (up-sweep, then down-sweep:
// ai = offset * (2t + 1) - 1, bi = offset * (2t + 2) - 1, `if (t < d)` with
// d = 256, 128, ..., 1 and back), unrolled by both compilers: each step's
// accesses run behind a check of their own, and the late steps' strides
// (128 bytes and up) put every active lane in one bank. The model scaled
// every shared access by the kernel's mean share of threads that pass
// (activeFraction), so the steps where one to sixteen threads run were
// charged 32-way at about half a block of warps: 5,370 wavefronts a
// block where a lane-by-lane count of the code gives 698 (2.3 ms on an
// A100 at 65,536 blocks, shared-bound, for 0.30 ms). Each access is now
// counted behind its own checks, lane by lane where they read only the
// thread (sharedWork, SharedChecks), through both front ends.
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='A100-PCIE-40GB@256:65536' %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=A100-PCIE-40GB
// RUN: %python -c "import glob, json; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); print(d['kernels'][0]['launches'][0]['prediction']['time_parts_s']['shared'])" > %t.plugin
// RUN: flipflop-ptx --no-ptxas --gpu A100-PCIE-40GB --block 256 --grid 65536 --csv %t.ptx | tail -1 | cut -d, -f17,26 > %t.ptxroute
// RUN: %python -c "import sys; p = float(open(r'%t.plugin').read()); f, s = map(float, open(r'%t.ptxroute').read().split(',')); w = s * f * 1e6 / (65536 / 108); print(p, s, w); sys.exit(0 if 600 < w < 760 and abs(p / s - 1) < 0.05 else 1)"
#include "ff_cuda.h"

#define N 512
__global__ void prescan(float *out, const float *in) {
  __shared__ float tmp[N];
  int t = threadIdx.x, offset = 1;
  tmp[2 * t] = in[blockIdx.x * N + 2 * t];
  tmp[2 * t + 1] = in[blockIdx.x * N + 2 * t + 1];
  for (int d = N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      tmp[bi] += tmp[ai];
    }
    offset *= 2;
  }
  if (t == 0)
    tmp[N - 1] = 0;
  for (int d = 1; d < N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      float v = tmp[ai];
      tmp[ai] = tmp[bi];
      tmp[bi] += v;
    }
  }
  __syncthreads();
  out[blockIdx.x * N + 2 * t] = tmp[2 * t];
  out[blockIdx.x * N + 2 * t + 1] = tmp[2 * t + 1];
}
