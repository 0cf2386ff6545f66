// FF016 names the cause when the registers go to loaded values held across
// the blocks that read them (SpillCurve::HeldLoads; docs/remarks/FF016.md).
// A 15 x 15 filter over a shared tile, 3 x 4 outputs a thread, each output
// stored under a bounds check: clang's MachineSink moves each output's
// multiply-adds into its guarded store's block and leaves the shared loads
// the outputs share above them, 225 of them read in up to 4 of the 12
// blocks (a row of the tile serves 4 outputs). ptxas 13 makes 255
// registers and 8.5 KB of spill code of it (sm_80); with
// -mllvm -disable-machine-sink none (each loaded value is then read in one
// block: no remark), as with nvcc's code of the same kind of kernel (the
// held-out convolution, docs/FIDELITY.md "Session 39").
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=A100-SXM4-40GB -Rpass-missed=flipflop 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=FF016
// RUN: flipflop-ptx %t.ptx --gpu A100-SXM4-40GB --no-ptxas --dump-profile | FileCheck %s --check-prefix=HELD
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-gpu=A100-SXM4-40GB -fsave-optimization-record -foptimization-record-file=%t.yaml
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.nosink.ptx -mllvm -disable-machine-sink -mllvm -flipflop-gpu=A100-SXM4-40GB -Rpass-missed=flipflop 2>&1 | FileCheck %s --check-prefix=NOSINK --allow-empty --implicit-check-not=FF016
// RUN: flipflop-ptx %t.nosink.ptx --gpu A100-SXM4-40GB --no-ptxas --dump-profile | FileCheck %s --check-prefix=HELD1
#include "ff_cuda.h"
#define F 15
#define TX 3
#define TY 4
#define BX 144
__constant__ float filt[F * F];

__global__ void blur(float *out, const float *in, int w, int h) {
  __shared__ float tile[TY + F - 1][BX * TX + F - 1];
  int bx = blockIdx.x * BX * TX, by = blockIdx.y * TY;
  for (int i = 0; i < TY + F - 1; ++i)
    for (int j = threadIdx.x; j < BX * TX + F - 1; j += BX)
      tile[i][j] = in[(by + i) * (w + F - 1) + bx + j];
  __syncthreads();
  float acc[TY][TX] = {};
#pragma unroll
  for (int i = 0; i < F; ++i)
#pragma unroll
    for (int j = 0; j < F; ++j)
#pragma unroll
      for (int y = 0; y < TY; ++y)
#pragma unroll
        for (int x = 0; x < TX; ++x)
          acc[y][x] += tile[y + i][threadIdx.x + x * BX + j] * filt[i * F + j];
#pragma unroll
  for (int y = 0; y < TY; ++y)
#pragma unroll
    for (int x = 0; x < TX; ++x)
      if (by + y < h && bx + threadIdx.x + x * BX < w)
        out[(by + y) * w + bx + threadIdx.x + x * BX] = acc[y][x];
}

// REMARK: remark: [FF016] kernel 'blur(float*, float const*, int, int)' holds more values at once than the {{[0-9]+}} registers a thread gets, so they spill: {{[1-9][0-9]+}} bytes of spill code (estimated from the PTX), {{.*}} of the predicted time; 225 of the values it holds were loaded in one block and are read in up to 4 later ones (225 from shared memory), so they stay live across them: keep the arithmetic that reads a load in one block (clang's MachineSink moves each guarded result's arithmetic into its own guard; -mllvm -disable-machine-sink leaves it where the loads are) or load them again where they are read, and check ptxas -v for the binary you ship [-Rpass-missed=flipflop]

// HELD: held-loads: 225 shared=225 global=0 other=0 readers=4
// HELD1: held-loads: {{[0-9]+}} shared={{[0-9]+}} global=0 other=0 readers=1

// YAML:      Name:{{ +}}FF016
// YAML:        - HeldLoads:{{ +}}'225'
// YAML:        - HeldLoadReaders:{{ +}}'4'

// NOSINK-NOT: FF016
