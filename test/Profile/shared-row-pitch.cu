// A warp of a 16-wide block holds two rows of the block, and where a shared
// tile's rows are 30 floats (120 B) apart, row 1's lanes fall on banks 30,
// 31, 0..13, fourteen of them row 0's: two wavefronts per load, where rows
// padded to 48 floats (row 1 on banks 16..31) take one. Both front ends
// read the step between rows (row-steps=, bytes per threadIdx.y and .z)
// and the model counts the banks of each lane's own address for the block
// shape (docs/MODEL.md, "Shared memory"). Before session 35 the rows were
// taken to continue the x stride (the linear thread index): one wavefront
// for both, so the padding a tuner tries (the held-out convolution's
// `use_padding`) changed no prediction. `bcast` reads one word per row
// (sh[threadIdx.y][k]) of rows 32 floats apart: the warp's two rows are one
// bank, two wavefronts; in a 32-wide block each warp is one row, one.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='A100-PCIE-40GB@16,8:256,512' %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=A100-PCIE-40GB
// RUN: %python -c "import glob, json, sys; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); t = {k['name']: k['launches'][0]['prediction']['time_parts_s']['shared'] for k in d['kernels']}; a, b = t['_Z6narrowPKfPf'], t['_Z6paddedPKfPf']; print(a, b); sys.exit(0 if a > 1.8 * b else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel narrow --gpu A100-PCIE-40GB --block 16,8 --grid 256,512 --csv %t.ptx | tail -1 | cut -d, -f26 > %t.0
// RUN: flipflop-ptx --no-ptxas --kernel padded --gpu A100-PCIE-40GB --block 16,8 --grid 256,512 --csv %t.ptx | tail -1 | cut -d, -f26 > %t.1
// RUN: flipflop-ptx --no-ptxas --kernel bcast --gpu A100-PCIE-40GB --block 16,8 --grid 256,512 --csv %t.ptx | tail -1 | cut -d, -f26 > %t.2
// RUN: flipflop-ptx --no-ptxas --kernel bcast --gpu A100-PCIE-40GB --block 32,4 --grid 128,1024 --csv %t.ptx | tail -1 | cut -d, -f26 > %t.3
// RUN: %python -c "import sys; r = lambda f: float(open(f).read()); a, b, c, d = r(r'%t.0'), r(r'%t.1'), r(r'%t.2'), r(r'%t.3'); print(a, b, c, d); sys.exit(0 if a > 1.8 * b and c > 1.8 * d else 1)"

// CHECK-LABEL: kernel _Z6narrowPKfPf
// CHECK:       access: shared load bytes=4 count=1 pattern=coalesced stride=4 {{.*}} row-steps=120,0
// CHECK-LABEL: kernel _Z6paddedPKfPf
// CHECK:       access: shared load bytes=4 count=1 pattern=coalesced stride=4 {{.*}} row-steps=192,0
// CHECK-LABEL: kernel _Z5bcastPKfPf
// CHECK:       access: shared load bytes=16 count=1 pattern=uniform stride=0 {{.*}} row-steps=128,0
#include "ff_cuda.h"

template <int W>
__device__ void tileSum(const float *in, float *out) {
  __shared__ float sh[8][W];
  int x = threadIdx.x, y = threadIdx.y;
  int g = (blockIdx.y * 8 + y) * 4096 + blockIdx.x * 16 + x;
  sh[y][x] = in[g];
  __syncthreads();
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s += sh[y][x + j];
  out[g] = s;
}

__global__ void narrow(const float *in, float *out) { tileSum<30>(in, out); }
__global__ void padded(const float *in, float *out) { tileSum<48>(in, out); }

__global__ void bcast(const float *in, float *out) {
  __shared__ float sh[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  int g = (blockIdx.y * 8 + y) * 4096 + blockIdx.x * blockDim.x + x;
  sh[y][x] = in[g];
  __syncthreads();
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += sh[y][k] * in[g + k];
  out[g] = s;
}
