// A stated launch (-flipflop-launch, every launch of one block and grid) is
// the problem the sweep of a module's only kernel ranks configurations
// for: its threads are the problem size, and a kernel written for one
// block shape that neither front end can read is held at the launch's
// block. Before, the sweep ran at 2^24 threads and assumed 256 threads for
// such a kernel: CLBlast's Xgemm compiled by clang (its stores in a call),
// launched as 16 x 8 threads x 32 x 32 blocks, was told to use 32 x 8
// threads at 65,536 blocks, 18 s a launch. A block the code shows is kept
// when the launch contradicts it, with a warning (FF014). Launches that
// differ, or a module of several kernels (the option names none), state
// no problem.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s
// -I%flipflop_src/test/Inputs -o %t.ptx -DROWS -mllvm
// -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000
// -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// --check-prefix=ROWS RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s
// -I%flipflop_src/test/Inputs -o %t.ptx -DROWS -mllvm
// -flipflop-gpu=A100-PCIE-40GB '-mllvm' '-flipflop-launch=96:1000;96:2000'
// -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// --check-prefix=TWO RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s
// -I%flipflop_src/test/Inputs -o %t.ptx -DCOPY -mllvm
// -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000
// -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// --check-prefix=COPY RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s
// -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE -mllvm
// -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000
// -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// --check-prefix=SCALE RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s
// -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE -mllvm
// -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=96:1000
// -fsave-optimization-record -foptimization-record-file=%t.yaml RUN: FileCheck
// %s --check-prefix=SCALE-YAML < %t.yaml RUN: %clang_ff_nocuda
// --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -DSCALE
// -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm -flipflop-launch=2048:1000
// -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=BIG RUN:
// %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs
// -o %t.ptx -DROWS -DSCALE -mllvm -flipflop-gpu=A100-PCIE-40GB -mllvm
// -flipflop-launch=96:1000 -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1
// | FileCheck %s --check-prefix=BOTH
#include "ff_cuda.h"

// Rows 100 elements apart do not repeat a block of 128 (test/Profile/
// store-block.cu): no block is read, and the launch's 96 threads are held.
// ROWS: [FF001] kernel 'rows(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 96, {{.*}} at block 96, grid 1000, {{.*}}problem size 96000 threads (the stated launch, -flipflop-launch)
// ROWS: [FF010] kernel 'rows(float const*, float*)': block shape kept at 96: indexes by threadIdx without reading blockDim; the stated launch's block 96 x 1 x 1 (-flipflop-launch)
// TWO: [FF001] kernel 'rows(float const*, float*)' on A100-PCIE-40GB: for {{[a-z]+}} use block 256 (assumed: {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
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

// A kernel that reads blockDim is swept at the launch's threads, and the
// launch as it is is compared with the pick (FF021); a launch that cannot
// run says why, and none is compared where the problem is not the launch's.
// SCALE: [FF001] kernel 'scale(float const*, float*)' on A100-PCIE-40GB:
// {{.*}}problem size 96000 threads (the stated launch, -flipflop-launch) SCALE:
// [FF021] kernel 'scale(float const*, float*)' as launched (-flipflop-launch),
// block 96, grid 1000, 250 W: predicted {{[0-9.]+ [um]?s}}, {{[0-9.]+ [um]?J}};
// the recommendation {{[0-9.]+ [um]?s}}, {{[0-9.]+ [um]?J}} ({{[-+][0-9.]+}}%
// energy, {{[-+][0-9.]+}}% time) SCALE-YAML: Name: FF021 SCALE-YAML:
// LaunchBlock: '96' SCALE-YAML: LaunchTimeNs: BIG: [FF021] kernel 'scale(float
// const*, float*)' as launched (-flipflop-launch), block 2048, grid 1000: this
// launch cannot run on A100-PCIE-40GB ( BOTH-NOT: [FF021] TWO-NOT: [FF021]
// BOTH-DAG: [FF001] kernel 'scale(float const*, float*)' on A100-PCIE-40GB:
// {{.*}}problem size 16777216 threads (assumed: set -flipflop-problem-size)
#ifdef SCALE
__global__ void scale(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 3.0f * in[i];
}
#endif
