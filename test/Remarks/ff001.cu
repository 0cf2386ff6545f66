// FF001 names the configuration each figure refers to (the recommendation,
// then the occupancy heuristic, each with its block, grid and power limit),
// the problem size and whether it was assumed, and what was guessed, with
// the occupancy in percent like FF002.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop -fsave-optimization-record -foptimization-record-file=%t/k.yaml 2>&1 | FileCheck %s
// Stated facts are named as such, and nothing is guessed:
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-problem-size=1048576 -mllvm -flipflop-args=1=64 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=STATED
// The optimization record: every figure also as an integer in a fixed unit, which
// llvm-remarkutil aggregates (it reads '1.565e+02' as nothing):
// RUN: FileCheck %s --check-prefix=YAML < %t/k.yaml
// RUN: llvm-remarkutil count --count-by=arg --args=TimeNs --args=EnergyUJ --args=PowerMW --args=ClockMHz --remark-name=FF001 --group-by=function %t/k.yaml | FileCheck %s --check-prefix=COUNT
#include "ff_cuda.h"

// CHECK: remark: [FF001] kernel 'accumulate(float*, int)' on A100-SXM4-40GB: for energy use block [[B:[0-9]+]], min-blocks [[M:[0-9]+]], power limit [[P:[0-9]+]] W{{(, SM clock locked at [0-9]+ MHz \(nvidia-smi -lgc [0-9]+,[0-9]+, needs root\))?}}; at block [[B]], grid {{[1-9][0-9]*}}, [[P]] W: {{[0-9.e+]+ [um]?s}}, {{[0-9.e+]+ [um]?J}}, {{[a-z0-9]+}}-bound, occupancy {{[0-9]+}}%, {{[0-9]+}} registers (estimated), clock {{[0-9]+}} MHz; occupancy heuristic at block {{[0-9]+}}, grid {{[1-9][0-9]*}}, {{[0-9]+}} W: {{[0-9.e+]+ [um]?s}}, {{[0-9.e+]+ [um]?J}} (recommendation {{[-+][0-9.]+}}% energy, {{[-+][0-9.]+}}% time); problem size 16777216 threads (assumed: set -flipflop-problem-size); guessed: loop at line [[@LINE+4]]: trip count depends on kernel argument #1, assumed 16 (unrolled 4 times by the compiler: 4 passes and a remainder loop) [-Rpass-analysis=flipflop]
// STATED: remark: [FF001] kernel 'accumulate(float*, int)' {{.*}}; problem size 1048576 threads (-flipflop-problem-size), arguments #1=64 (-flipflop-args) [-Rpass-analysis=flipflop]
__global__ void accumulate(float *x, int n) {
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += x[k];
  x[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// YAML:      Name: FF001
// YAML:        - Block: '[[B:[0-9]+]]'
// YAML:        - OccupancyPct: '{{[0-9]+}}'
// YAML:        - ClockMHz: '{{[1-9][0-9]*}}'
// YAML:        - ProblemThreads: '16777216'
// YAML:        - Guess: 'loop at line
// YAML:        - TimeNs: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - EnergyUJ: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - PowerMW: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - PowerLimitMW: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - HeuristicTimeNs: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - HeuristicEnergyUJ: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - HeuristicPowerMW: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - HeuristicPowerLimitMW: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - BlockX: '[[B]]'
// YAML-NEXT:   - BlockY: '1'
// YAML-NEXT:   - BlockZ: '1'
// YAML-NEXT:   - MaxThreads: '[[B]]'
// YAML-NEXT:   - GridX: '{{[1-9][0-9]*}}'
// YAML-NEXT:   - GridY: '1'
// YAML-NEXT:   - GridZ: '1'
// YAML-NEXT:   - BlockSizeAgnostic: '{{true|false}}'
// YAML-NEXT:   - Occupancy: '{{[0-9.]+}}'
// COUNT:      Function,TimeNs,EnergyUJ,PowerMW,ClockMHz
// COUNT-NEXT: _Z10accumulatePfi,{{[1-9][0-9]*}},{{[1-9][0-9]*}},{{[1-9][0-9]*}},{{[1-9][0-9]*}}
