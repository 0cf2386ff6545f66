// Loads of one address but for a constant offset, unrolled from a sliding
// window (a 15-tap filter, `in[x + j]`, j < 15): the runs of a warp overlap,
// the L1 serves what the first brought in, and the union of the runs (6
// sectors per warp) is what reaches L2 and DRAM, not 15 runs of 4 sectors
// (docs/MODEL.md "Overlapping windows", session 18). The same taps 128
// floats apart (`in[x + 128 * j]`) do not overlap: 60 sectors. Before, both
// were charged 60, and a direct 2-D convolution was DRAM-bound at 15 GB.
// With the filter's uniform loads (15 B per thread) and the store (4 B) the
// PTX route counts 25 against 79 bytes per thread between L2 and the SMs;
// the plugin's L2 time falls as far. (DRAM is another matter: the next
// block reads 14 of `far`'s 15 runs again, and since session 19 the L2
// serves them, docs/MODEL.md "Overlapping footprints".)
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='A100-PCIE-40GB@128:32768' %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=A100-PCIE-40GB
// RUN: %python -c "import glob, json, sys; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); t = {k['name']: k['launches'][0]['prediction']['time_parts_s']['l2'] for k in d['kernels']}; a, b = t['_Z4nearPKfS0_Pf'], t['_Z3farPKfS0_Pf']; print(a, b); sys.exit(0 if a < 0.4 * b else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel near --gpu A100-PCIE-40GB --block 128 --grid 32768 --csv %t.ptx | tail -1 | cut -d, -f31 > %t.0
// RUN: flipflop-ptx --no-ptxas --kernel far --gpu A100-PCIE-40GB --block 128 --grid 32768 --csv %t.ptx | tail -1 | cut -d, -f31 > %t.1
// RUN: %python -c "import sys; r = lambda f: float(open(f).read()); a, b = r(r'%t.0'), r(r'%t.1'); print(a, b); sys.exit(0 if a < 0.4 * b else 1)"
// RUN: %python -c "import glob, json, sys; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); t = {k['name']: k['launches'][0]['prediction']['time_parts_s']['l2'] for k in d['kernels']}; a, b = t['_Z7steppedPKfS0_Pf'], t['_Z3farPKfS0_Pf']; print(a, b); sys.exit(0 if a < 0.4 * b else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel stepped --gpu A100-PCIE-40GB --block 128 --grid 32768 --csv %t.ptx | tail -1 | cut -d, -f31 > %t.2
// RUN: %python -c "import sys; r = lambda f: float(open(f).read()); a, b = r(r'%t.2'), r(r'%t.1'); print(a, b); sys.exit(0 if a < 0.4 * b else 1)"
#include "ff_cuda.h"

__global__ void near(const float *in, const float *w, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int j = 0; j < 15; ++j)
    s += in[x + j] * w[j];
  out[x] = s;
}

__global__ void far(const float *in, const float *w, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int j = 0; j < 15; ++j)
    s += in[x + 128 * j] * w[j];
  out[x] = s;
}

// The same window as a loop that steps it by 4 bytes a pass (not unrolled):
// each pass reads mostly what the previous one brought into L1, so the
// passes move the union of their runs (session 18; the inner loop of a
// direct convolution that clang unrolls by 2, or nvcc by 4 when the
// filter's width is an argument).
__global__ void stepped(const float *in, const float *w, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
  float s = 0;
#pragma unroll 1
  for (int j = 0; j < 15; ++j)
    s += in[x + j] * w[j];
  out[x] = s;
}
