// A stencil's taps in the IR are offsets from one tap's address (`x[i]`),
// which the IR front end takes to start a sector; in a grid-stride loop
// from `gid + 1` it is `x[i - 1]` that does, as the PTX's address forms
// (offsets from the array's base at the block's first lane) say. The
// plugin charged each warp a sector more than flipflop-ptx on the same code
// (796 against 720 us on an RTX A4000: 32M floats, 256 x 192), where
// outside a grid-stride loop the neighbours' L2 hits had hidden it. The
// IR's siblings now take their place in a sector from the PTX's loads of
// the same pattern: both front ends within 1%.
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='RTX-A4000@256:192' FLIPFLOP_ARGS=2=33554432 %clang_ff_nocuda --cuda-gpu-arch=sm_86 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=RTX-A4000
// RUN: flipflop-ptx --no-ptxas --kernel _Z7sten_gsPKfPfi --gpu RTX-A4000 --block 256 --grid 192 --arg 2=33554432 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.ptx.time
// RUN: %python -c "import glob, json, sys; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); t = {k['name']: k['launches'][0]['prediction']['time_s'] for k in d['kernels']}; p = float(open(r'%t.ptx.time').read()); r = [t['_Z7sten_gsPKfPfi'] / p, t['_Z7sten_gsPKfPfi'] / t['_Z4copyPKfPfi']]; print(r); sys.exit(0 if abs(r[0] - 1) < 0.01 and r[1] < 1.05 else 1)"
#include "ff_cuda.h"
__global__ void sten_gs(const float *__restrict__ x, float *__restrict__ y,
                        int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x + 1; i < n - 1;
       i += blockDim.x * gridDim.x)
    y[i] = x[i - 1] + x[i] + x[i + 1];
}
__global__ void copy(const float *__restrict__ x, float *__restrict__ y,
                     int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = x[i];
}
