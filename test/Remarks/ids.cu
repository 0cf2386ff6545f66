// The text of each remark ID (docs/remarks/), which starts with the ID in
// brackets, and its YAML arguments.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/k.s -mllvm -flipflop-verbosity=2 -Rpass-analysis=flipflop -Rpass-missed=flipflop -fsave-optimization-record -foptimization-record-file=%t/k.yaml 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=YAML < %t/k.yaml
// Verbosity 0 keeps one line per kernel:
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/k0.s -Rpass-analysis=flipflop 2>&1 | grep -c remark: | FileCheck %s --check-prefix=ONE
// An unwritable report directory is FF902, and the compile still succeeds:
// RUN: env FLIPFLOP_REPORT_DIR=/proc/flipflop-cannot-exist %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/k1.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=FF902
// RUN: test -s %t/k1.s
// The size stated, FF011 is not said and the occupancy counts it (4 KiB a
// block of the A100's 164 KiB allow 40 blocks, more than the 32 its warps do):
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/k2.s -mllvm -flipflop-dynamic-shared=4096 -Rpass-analysis=flipflop -Rpass-missed=flipflop 2>&1 | FileCheck %s --check-prefix=DYN
// DYN-NOT: [FF011]
// DYN:     remark: [FF012] kernel 'dyn(float*, int)'
// DYN-NOT: [FF011]
#include "ff_cuda.h"

// CHECK: remark: [FF001] kernel 'tiled(float*, float const*)' on A100-SXM4-40GB: for energy use block 16x16
// CHECK: remark: [FF002] why: {{.*}}block shape held: indexes by threadIdx without reading blockDim; shared tile [16][16]
// CHECK: remark: [FF003] pareto 0: block 16x16, min-blocks {{[0-9]+}}, {{[0-9]+}} W: {{[0-9.e+]+ [um]?s}}, {{[0-9.e+]+ [um]?J}}
// CHECK: remark: [FF010] kernel 'tiled(float*, float const*)': block shape kept at 16x16: indexes by threadIdx without reading blockDim; shared tile [16][16]; only register caps and power limits are tuned [-Rpass-missed=flipflop]
__global__ void tiled(float *out, const float *in) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = in[(blockIdx.x * 16 + threadIdx.y) * 16 + threadIdx.x];
  __syncthreads();
  out[(blockIdx.x * 16 + threadIdx.x) * 16 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}

// CHECK: remark: [FF001] kernel 'dyn(float*, int)' on A100-SXM4-40GB
// CHECK: remark: [FF011] kernel 'dyn(float*, int)' uses dynamic shared memory of unknown size; occupancy assumes 0 bytes; give -flipflop-dynamic-shared=BYTES[+PER*t]
// CHECK: remark: [FF012] kernel 'dyn(float*, int)': {{[0-9]+}} loop trip count(s) guessed (loop at line [[@LINE+4]]: trip count depends on kernel argument #1, assumed 16 (unrolled 4 times by the compiler: 4 passes and a remainder loop)); give -flipflop-args or -flipflop-problem-size
__global__ void dyn(float *x, int n) {
  extern __shared__ float buf[];
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += buf[k];
  x[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// CHECK: remark: [FF001] kernel 'bounded(float*)' on A100-SXM4-40GB
// CHECK: remark: [FF020] kernel 'bounded(float*)' has __launch_bounds__(128, 2): predicted {{[0-9.e+]+ [um]?s}}, {{[0-9.e+]+ [um]?J}} at block 128, [[P:[0-9]+]] W against the recommendation's {{[0-9.e+]+ [um]?s}}, {{[0-9.e+]+ [um]?J}} at block {{[0-9x]+}} [-Rpass-analysis=flipflop]
__global__ void __launch_bounds__(128, 2) bounded(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

// YAML:      Name: FF002
// YAML:        - Explanation:
// YAML:      Name: FF003
// YAML:        - Rank: '0'
// YAML:      Name: FF010
// YAML:        - Reason:
// YAML:      Name: FF011
// YAML:      Name: FF012
// YAML:        - GuessedLoops: '{{[1-9]}}'
// YAML:      Name: FF020
// YAML:        - AuthorMaxThreads: '128'
// YAML-NEXT:   - String:          ', '
// YAML-NEXT:   - AuthorMinBlocks: '2'
// ONE: 3
// FF902: remark: [FF902] FlipFlop could not write its report: cannot create '/proc/flipflop-cannot-exist'
