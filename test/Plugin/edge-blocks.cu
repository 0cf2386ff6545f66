// Blocks past the problem's edge (docs/MODEL.md "Blocks past the edge"):
// both kernels do the same work on the same launch (4 x 64 threads, 3 rows
// of blocks of 256 output rows each, 520 rows), but in rows0 a thread's four
// rows are consecutive, so the third row of blocks has 2 of its 64 thread
// rows working, each all four rows: those blocks run as long as a full one's
// latency path. In rows1 the rows are 64 apart, and every working thread of
// the edge block does one. Both front ends predict rows0 slower. Each
// thread reads its rows' own rows of `in` (with `in[x + r]` the four loads
// of rows0 overlapped, which the L1 window share of session 18 credits, so
// traffic and not the edge blocks told the kernels apart).
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='RTX-A4000@4,64:1000,3' %clang_ff_nocuda --cuda-gpu-arch=sm_86 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=RTX-A4000
// RUN: %python -c "import glob, json, sys; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); t = {k['name']: k['launches'][0]['prediction']['time_s'] for k in d['kernels']}; a, b = t['_Z5rows0PKfPf'], t['_Z5rows1PKfPf']; print(a, b); sys.exit(0 if a > 1.03 * b else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel rows0 --gpu RTX-A4000 --block 4,64 --grid 1000,3 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.0
// RUN: flipflop-ptx --no-ptxas --kernel rows1 --gpu RTX-A4000 --block 4,64 --grid 1000,3 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.1
// RUN: %python -c "import sys; r = lambda f: float(open(f).read()); a, b = r(r'%t.0'), r(r'%t.1'); print(a, b); sys.exit(0 if a > 1.03 * b else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel rows0 --dump-profile %t.ptx | FileCheck %s
#include "ff_cuda.h"

#define N 520

__global__ void rows0(const float *in, float *out) {
  int x = blockIdx.x * 4 + threadIdx.x;
  int y = blockIdx.y * 256 + threadIdx.y * 4;
  for (int t = 0; t < 4; ++t) {
    int r = y + t;
    if (r < N) {
      float s = 0;
      for (int c = 0; c < 256; ++c)
        s = s * in[r * 4096 + x] + 1.0f;
      out[r * 4096 + x] = s;
    }
  }
}

__global__ void rows1(const float *in, float *out) {
  int x = blockIdx.x * 4 + threadIdx.x;
  int y = blockIdx.y * 256 + threadIdx.y;
  for (int t = 0; t < 4; ++t) {
    int r = y + 64 * t;
    if (r < N) {
      float s = 0;
      for (int c = 0; c < 256; ++c)
        s = s * in[r * 4096 + x] + 1.0f;
      out[r * 4096 + x] = s;
    }
  }
}

// CHECK: guard 0: + 4*tid.y + 256*ctaid.y - {{[0-9]+}} <= 0
