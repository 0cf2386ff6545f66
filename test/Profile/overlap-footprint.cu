// Blocks whose reads overlap: a 5-point stencil (no loop: the rows above
// and below are the next block's too) and a direct 15 x 15 filter (a loop
// over the window's rows; the taps of a row unrolled): the rows of the
// window, of the block's threads and of the next row of blocks are one set
// of rows, and with the L2 holding them until the neighbour reads them
// each input byte comes from DRAM once (docs/MODEL.md "Overlapping
// footprints", session 19). Their DRAM bytes are then a copy kernel's (one
// load, one store per thread). Rows that no neighbour reads (`apart`: 15
// rows 16 apart per row of threads) stay 15 rows. Before session 19 the
// stencil moved 2.1x the copy's DRAM bytes and the filter 9.7x, in both
// front ends. A block one row deep (`stencil5row`, 128 x 1 threads) has
// no level of rows of its own; its stencil's rows above and below are rows
// of the block term's stride (the next row of blocks).
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='A100-PCIE-40GB@32,8:127,480' %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=A100-PCIE-40GB
// RUN: %python -c "import glob, json, sys; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); t = {k['name']: k['launches'][0]['prediction']['time_parts_s']['dram'] for k in d['kernels']}; c = t['_Z4copyPKfPf']; r = [t[n] / c for n in ('_Z8stencil5PKfPf', '_Z6filterPKfS0_Pf', '_Z5apartPKfS0_Pf')]; print(r); sys.exit(0 if r[0] < 1.1 and r[1] < 1.1 and r[2] > 6 else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel copy --gpu A100-PCIE-40GB --block 32,8 --grid 127,480 --csv %t.ptx | tail -1 | cut -d, -f30 > %t.bytes
// RUN: flipflop-ptx --no-ptxas --kernel stencil5 --gpu A100-PCIE-40GB --block 32,8 --grid 127,480 --csv %t.ptx | tail -1 | cut -d, -f30 >> %t.bytes
// RUN: flipflop-ptx --no-ptxas --kernel filter --gpu A100-PCIE-40GB --block 32,8 --grid 127,480 --csv %t.ptx | tail -1 | cut -d, -f30 >> %t.bytes
// RUN: flipflop-ptx --no-ptxas --kernel apart --gpu A100-PCIE-40GB --block 32,8 --grid 127,480 --csv %t.ptx | tail -1 | cut -d, -f30 >> %t.bytes
// RUN: %python -c "import sys; b = [float(x) for x in open(r'%t.bytes')]; r = [x / b[0] for x in b[1:]]; print(r); sys.exit(0 if r[0] < 1.1 and r[1] < 1.1 and r[2] > 6 else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel copy --gpu A100-PCIE-40GB --block 32,8 --grid 127,480 --csv %t.ptx | tail -1 | cut -d, -f30 > %t.row
// RUN: flipflop-ptx --no-ptxas --kernel stencil5row --gpu A100-PCIE-40GB --block 128,1 --grid 31,3840 --csv %t.ptx | tail -1 | cut -d, -f30 >> %t.row
// RUN: %python -c "import sys; b = [float(x) for x in open(r'%t.row')]; print(b[1] / b[0]); sys.exit(0 if b[1] < 1.1 * b[0] else 1)"
#include "ff_cuda.h"
#define W 4096
__global__ void copy(const float *in, float *out) {
  int x = blockIdx.x * 32 + threadIdx.x + 1;
  int y = blockIdx.y * 8 + threadIdx.y + 1;
  out[y * W + x] = in[y * W + x];
}
__global__ void stencil5(const float *in, float *out) {
  int x = blockIdx.x * 32 + threadIdx.x + 1;
  int y = blockIdx.y * 8 + threadIdx.y + 1;
  int i = y * W + x;
  out[i] = 0.2f * (in[i - W] + in[i - 1] + in[i] + in[i + 1] + in[i + W]);
}
__global__ void stencil5row(const float *in, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x + 1;
  int y = blockIdx.y + 1;
  int i = y * W + x;
  out[i] = 0.2f * (in[i - W] + in[i - 1] + in[i] + in[i + 1] + in[i + W]);
}
__global__ void filter(const float *in, const float *w, float *out) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  float s = 0;
  for (int i = 0; i < 15; ++i)
#pragma unroll
    for (int j = 0; j < 15; ++j)
      s += in[(y + i) * W + x + j] * w[i * 15 + j];
  out[y * W + x] = s;
}
__global__ void apart(const float *in, const float *w, float *out) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  float s = 0;
  for (int i = 0; i < 15; ++i)
    s += in[(y * 16 + i) * W + x] * w[i];
  out[y * W + x] = s;
}
