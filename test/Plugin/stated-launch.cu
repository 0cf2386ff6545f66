// A stated launch (-flipflop-launch, every launch of one block and grid) is
// the problem the sweep of a module's only kernel ranks configurations
// for, where that is unambiguous: a block the sweep holds (then the
// launch's grid too: the same work), or a 1-D launch of a kernel indexed
// along x alone whose work per thread does not depend on the block (its
// threads at every block). A kernel written for one block shape that
// neither front end can read is held at the launch's block. Before, the
// sweep ran at 2^24 threads and assumed 256 threads for such a kernel:
// CLBlast's Xgemm compiled by clang (its stores in a call), launched as
// 16 x 8 threads x 32 x 32 blocks, was told to use 32 x 8 threads at
// 65,536 blocks, 18 s a launch. A block the code shows is kept when the
// launch contradicts it, with a warning (FF014). FF021 compares the launch
// as it is with the recommendation, or says why it cannot run (over the
// GPU's threads or the launch bounds, stopped by the kernel's own check on
// blockDim: then it is not the problem either). Launches that differ, a
// stated problem size, a grid-stride or block-stride loop, a 2-D launch of
// a swept kernel and a module of several kernels (the option names none)
// keep the default problem, and FF021 is not said where the two would do
// different work.
//
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DROWS -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000 -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DROWS -mllvm -flipflop-gpu=A100-PCIE-40GB '-mllvm' '-flipflop-launch=96:1000;96:2000' -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=TWO --implicit-check-not=[FF021]
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DROWS -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=2048:1000 -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DCOPY -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000 -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000 -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=SCALE
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000 -fsave-optimization-record -foptimization-record-file=%t.yaml
// RUN: FileCheck %s --check-prefix=SCALE-YAML < %t.yaml
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE -mllvm -flipflop-gpu=A100-PCIE-40GB '-mllvm' '-flipflop-launch=V100-SXM2-16GB@96:1000;A100-PCIE-40GB@96:1000' -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=SCALE
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000 -mllvm -flipflop-problem-size=16777216 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=SIZED --implicit-check-not=[FF021]
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DROWS -DSCALE -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000 -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=BOTH --implicit-check-not=[FF021]
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DEARLY -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=64:1000 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DBOUNDED -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=256:1000 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=BOUNDED
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DSTRIDE -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=256:432 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=STRIDE --implicit-check-not=[FF021]
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DADD2D -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-args=2=1024 -mllvm -flipflop-launch=32,8:32,128 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ADD2D --implicit-check-not=[FF021]
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DROWSUM -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-args=2=4096 -mllvm -flipflop-launch=128:1000 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ROWSUM --implicit-check-not=[FF021]
// An unknown GPU in a launch is an option problem (FF901), and no launch
// is taken:
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE -mllvm -flipflop-gpu=A100-PCIE-40GB '-mllvm' '-flipflop-launch=NOPE@96:1000;A100-PCIE-40GB@96:1000' -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=NOPE --implicit-check-not=[FF021]
// NOPE: warning: FlipFlop: option 'launch': 'NOPE@96:1000': unknown GPU 'NOPE'{{.*}}(default kept) [FF901]
// NOPE: [FF001] kernel 'scale(float const*, float*)' on A100-PCIE-40GB: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
#include "ff_cuda.h"

// Rows 100 elements apart do not repeat a block of 128 (test/Profile/
// store-block.cu): no block is read, and the launch's 96 threads are held.
// ROWS: [FF001] kernel 'rows(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 96, {{.*}} at block 96, grid 1000, {{.*}}problem size 96000 threads (the stated launch, -flipflop-launch)
// ROWS: [FF010] kernel 'rows(float const*, float*)': block shape kept at 96: indexes by threadIdx without reading blockDim; the stated launch's block 96 x 1 x 1 (-flipflop-launch)
// ROWS: [FF021] kernel 'rows(float const*, float*)' as launched (-flipflop-launch), block 96, grid 1000, at the default power limit (250 W): predicted
// TWO: [FF001] kernel 'rows(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 256 (assumed: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
// A block the GPU cannot run is neither held nor the problem.
// BIG: [FF001] kernel 'rows(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 256 (assumed: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
// BIG: [FF021] kernel 'rows(float const*, float*)' as launched (-flipflop-launch), block 2048, grid 1000: this launch cannot run on A100-PCIE-40GB (block larger than the GPU's maximum threads per block); the recommendation is not compared with it
// BOTH-DAG: [FF001] kernel 'rows(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 256 (assumed: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
#ifdef ROWS
__global__ void rows(const float *in, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
#pragma unroll
  for (int r = 0; r < 4; r++)
    out[r * 100 + x] = in[x] + r;
}
#endif

// The stores show 128 threads; a launch of 96 does not move them.
// COPY: [FF001] kernel 'copy128(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 128, {{.*}}problem size 96000 threads (the stated launch, -flipflop-launch)
// COPY: [FF014] kernel 'copy128(float const*, float*)': check this prediction: the stated launch's block (96 x 1 x 1) is not the block the code is written for (128 x 1 x 1: {{.*}}the stores index blockIdx.x * 128 + threadIdx.x
#ifdef COPY
__global__ void copy128(const float *in, float *out) {
  int x = blockIdx.x * 128 + threadIdx.x;
  out[x] = 2.0f * in[x];
}
#endif

// A kernel that reads blockDim is swept at the launch's threads; the launch
// for this GPU is compared also when one for another GPU comes first.
// SCALE: [FF001] kernel 'scale(float const*, float*)' on A100-PCIE-40GB: {{.*}}problem size 96000 threads (the stated launch, -flipflop-launch)
// SCALE: [FF021] kernel 'scale(float const*, float*)' as launched (-flipflop-launch), block 96, grid 1000, at the default power limit (250 W): predicted {{[0-9.]+ [um]?s}}, {{[0-9.]+ [um]?J}}; the recommendation {{[0-9.]+ [um]?s}}, {{[0-9.]+ [um]?J}} ({{[-+][0-9.]+}}% energy, {{[-+][0-9.]+}}% time)
// SCALE-YAML: Name: FF021
// SCALE-YAML: LaunchBlock: '96'
// SCALE-YAML: LaunchTimeNs:
// SIZED: [FF001] kernel 'scale(float const*, float*)' on A100-PCIE-40GB: {{.*}}problem size 16777216 threads (-flipflop-problem-size)
// BOTH-DAG: [FF001] kernel 'scale(float const*, float*)' on A100-PCIE-40GB: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
#ifdef SCALE
__global__ void scale(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 3.0f * in[i];
}
#endif

// The kernel's own check stops a launch of 64 threads.
// EARLY: [FF001] kernel 'early(float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 128, {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
// EARLY: [FF021] kernel 'early(float*)' as launched (-flipflop-launch), block 64, grid 1000: this launch cannot run on A100-PCIE-40GB (its block fails the kernel's own check on blockDim: blockDim.x == 128 is required
#ifdef EARLY
__global__ void early(float *x) {
  if (blockDim.x != 128)
    return;
  x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}
#endif

// A row a block: its blocks are the problem, a setup loop's kernel its
// threads, and the profile cannot tell the two block-stride loops apart.
// ROWSUM: [FF001] kernel 'rowsum(float const*, float*, int)' on A100-PCIE-40GB: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
#ifdef ROWSUM
__global__ void rowsum(const float *in, float *out, int n) {
  __shared__ float s[1024];
  float acc = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    acc += in[blockIdx.x * n + j];
  s[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int k = 0; k < blockDim.x; k++)
      t += s[k];
    out[blockIdx.x] = t;
  }
}
#endif

// Over its __launch_bounds__: not held, not the problem, said by FF021.
// BOUNDED: [FF001] kernel 'bounded(float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block {{[0-9]+}}, {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
// BOUNDED: [FF021] kernel 'bounded(float*)' as launched (-flipflop-launch), block 256, grid 1000: this launch cannot run on A100-PCIE-40GB (
#ifdef BOUNDED
__global__ void __launch_bounds__(128) bounded(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}
#endif

// A grid-stride loop: the launch's threads are not its elements.
// STRIDE: [FF001] kernel 'stride(float const*, float*, int)' on A100-PCIE-40GB: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
#ifdef STRIDE
__global__ void stride(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = 2.0f * in[i];
}
#endif

// A 2-D launch of a swept kernel: its area is not a thread count.
// ADD2D: [FF001] kernel 'add2d(float const*, float*, int)' on A100-PCIE-40GB: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
#ifdef ADD2D
__global__ void add2d(const float *in, float *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * w + x] = in[y * w + x] + 1.0f;
}
#endif
