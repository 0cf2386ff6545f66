// -fsave-optimization-record: every figure of FF001 is a YAML argument that
// LLVM's remark tools read back.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O2 -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t/saxpy.s -fsave-optimization-record -foptimization-record-file=%t/saxpy.opt.yaml
// RUN: FileCheck %s < %t/saxpy.opt.yaml
// RUN: llvm-remarkutil count --parser=yaml --group-by=function --pass-name=flipflop %t/saxpy.opt.yaml | FileCheck %s --check-prefix=COUNT
// CHECK:      Pass:            flipflop
// CHECK-NEXT: Name:            FF001
// CHECK-NEXT: DebugLoc:        { File: '{{.*}}saxpy.cu', Line: 2, Column: 17 }
// CHECK:      Function:        _Z5saxpyfPKfPfi
// CHECK-NEXT: Args:
// CHECK:        - Kernel:          'saxpy(float, float const*, float*, int)'
// CHECK:        - GPU:             H100-SXM5-80GB
// CHECK:        - Objective:       energy
// CHECK:        - Block:           '{{[0-9]+}}'
// CHECK:        - MinBlocks:       '{{[0-9]+}}'
// CHECK:        - PowerLimitW:     '{{[0-9]+}}'
// CHECK:        - Time:            {{[0-9.e+-]+ [um]?s$}}
// CHECK:        - Energy:          {{[0-9.e+-]+ [um]?J$}}
// CHECK:        - Bottleneck:      {{[a-z0-9]+}}
// CHECK:        - Registers:       '{{[0-9]+}}'
// CHECK:        - RegisterSource:  {{ptxas|estimated}}
// CHECK:        - HeuristicBlock:  '{{[0-9]+}}'
// CHECK:        - EnergyChangePct: '{{-?[0-9.e+-]+}}'
// The same figures in fixed units, in the record only.
// CHECK:        - TimeUs:          '{{[0-9.e+-]+}}'
// CHECK:        - EnergyMJ:        '{{[0-9.e+-]+}}'
// CHECK:        - TimeNs:          '{{[0-9]+}}'
// COUNT: _Z5saxpyfPKfPfi,1
