// With -flipflop-ptxas=on, the registers FlipFlop reports come from ptxas -v run
// on the very PTX the compile emits, and equal what ptxas says; without
// ptxas (the plugin's default, for compile time) they are the IR estimate and
// the remark says so.
// REQUIRES: ptxas, cuda
// RUN: rm -rf %t && mkdir -p %t/r
// RUN: env FLIPFLOP_PTXAS=on FLIPFLOP_REPORT_DIR=%t/r %clang_ff_cuda -std=c++17 -O2 --cuda-gpu-arch=sm_90 -I%flipflop_src/examples -S %flipflop_src/examples/stencil2d.cu -o %t/s.ptx -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: %ptxas -arch=sm_90 -v %t/s.ptx -o /dev/null > %t/both.txt 2>&1
// RUN: cat %t/r/*.json >> %t/both.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/both.txt
// RUN: %clang_ff_cuda -std=c++17 -O2 --cuda-gpu-arch=sm_90 -I%flipflop_src/examples -S %flipflop_src/examples/stencil2d.cu -o %t/s2.ptx -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ESTIMATED
// RUN: cmp %t/s.ptx %t/s2.ptx
// EXACT: remark: [FF001] kernel 'stencil5{{.*}}, {{[0-9]+}} registers (ptxas)
// SAME: Compiling entry function '_Z8stencil5PKfPfiiff'
// SAME: Used [[REGS:[0-9]+]] registers
// SAME: "resources": {
// SAME: "estimated_registers": {{[0-9]+}},
// SAME-NEXT: "registers": [[REGS]],
// SAME-NEXT: "registers_exact": true
// ESTIMATED: remark: [FF001] kernel 'stencil5{{.*}}, {{[0-9]+}} registers (estimated)
