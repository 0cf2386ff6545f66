// A tree reduction over interleaved pairs, sh[2 * s * t] += sh[2 * s * t +
// s] with s = 1, 2, 4, ... and the threads with 2 * s * t < blockDim.x
// active: the lanes' stride is 8s bytes, a value the loop moves, so the
// conflicts change pass by pass (2-, 4-, 8-way, then 8-, 8-, 4-, 2-way as
// fewer lanes take part, one warp from the third pass on): 47 wavefronts
// over 12 warp requests a load in a 256-thread block, about 4 a request.
// The PTX front end had no stride for the lanes (unknown: one wavefront)
// and the IR front end read a thread index times a runtime value as a
// pitch far apart (32-way on every pass): 2^2.3 apart on Liu-xiandong's
// reduce1 on a V100. The PTX front end now evaluates each lane's address
// and checks at each pass of the loop (loopBankWays: `by-pass`), and the
// plugin takes its count for the IR's far-pitched shared accesses.
// `sequential` (t < s, sh[t] += sh[t + s]) stays conflict-free.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='A100-PCIE-40GB@256:4096' %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.clang.ptx -mllvm -flipflop-gpu=A100-PCIE-40GB
// RUN: %python -c "import glob, json, sys; d = json.load(open(glob.glob(r'%t.r/*.json')[0])); t = {k['name']: k['launches'][0]['prediction']['time_parts_s']['shared'] for k in d['kernels']}; open(r'%t.plugin', 'w').write(repr(t['_Z11interleavedPKfPf'])); a, b = t['_Z11interleavedPKfPf'], t['_Z10sequentialPKfPf']; print(a, b); sys.exit(0 if 2.5 * b < a < 5 * b else 1)"
// RUN: flipflop-ptx --no-ptxas --kernel interleaved --gpu A100-PCIE-40GB --block 256 --grid 4096 --csv %t.clang.ptx | tail -1 | cut -d, -f26 > %t.ptx.i
// RUN: flipflop-ptx --no-ptxas --kernel sequential --gpu A100-PCIE-40GB --block 256 --grid 4096 --csv %t.clang.ptx | tail -1 | cut -d, -f26 > %t.ptx.s
// RUN: %python -c "import sys; r = lambda f: float(open(f).read()); a, b, p = r(r'%t.ptx.i'), r(r'%t.ptx.s'), r(r'%t.plugin'); print(a, b, p); sys.exit(0 if 2.5 * b < a < 5 * b and abs(p / a - 1) < 0.15 else 1)"

// CHECK-LABEL: kernel _Z11interleavedPKfPf
// CHECK:       access: shared load bytes=4 {{.*}}pattern=unknown stride=0 bank-ways=4 by-pass
// CHECK-LABEL: kernel _Z10sequentialPKfPf
// CHECK-NOT:   by-pass
// CHECK:       end kernel
#include "ff_cuda.h"

__global__ void interleaved(const float *in, float *out) {
  __shared__ float sh[256];
  unsigned t = threadIdx.x;
  sh[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned i = 2 * s * t;
    if (i < blockDim.x)
      sh[i] += sh[i + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = sh[0];
}

__global__ void sequential(const float *in, float *out) {
  __shared__ float sh[256];
  unsigned t = threadIdx.x;
  sh[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = sh[0];
}
