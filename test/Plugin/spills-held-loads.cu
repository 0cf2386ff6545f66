// FF016 names the cause when the registers go to loaded values held across
// the blocks that read them (KernelProfile::Held; docs/remarks/FF016.md).
// A 15 x 15 filter over a shared tile, 3 x 4 outputs a thread, each output
// stored under a bounds check (test/Inputs/tile-stencil.cuh): clang's MachineSink moves each output's
// multiply-adds into its guarded store's block and leaves the shared loads
// the outputs share above them, 225 of them read in up to 4 of the 12
// blocks (a row of the tile serves 4 outputs). ptxas 13 makes 255
// registers and 8.0 KB of spill code of it (sm_80); with
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
#define BX 144
#define BY 1
#define TX 3
#define TY 4
#define GUARDED 1
#include "tile-stencil.cuh"

// REMARK: remark: [FF016] kernel 'stencil(float const*, float*)' holds more values at once than the {{[0-9]+}} registers a thread gets, so they spill: {{[1-9][0-9]+}} bytes of spill code (estimated from the PTX), {{.*}} of the predicted time; 225 of the values it holds were loaded in one block and are read in up to 4 later ones (225 from shared memory), so they stay live across them: keep the arithmetic that reads a load in one block (clang's MachineSink moves each guarded result's arithmetic into its own guard; -mllvm -disable-machine-sink leaves it where the loads are) or load them again where they are read, and check ptxas -v for the binary you ship [-Rpass-missed=flipflop]

// HELD: held-loads: 225 shared=225 global=0 other=0 readers=4
// HELD1: held-loads: {{[0-9]+}} shared={{[0-9]+}} global=0 other=0 readers=1

// YAML:      Name:{{ +}}FF016
// YAML:        - HeldLoads:{{ +}}'225'
// YAML:        - HeldLoadReaders:{{ +}}'4'

// NOSINK-NOT: FF016
