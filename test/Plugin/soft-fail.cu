// An internal problem in one kernel's analysis becomes remark FF900 naming
// the kernel; the other kernels are still analysed, the compile succeeds and
// the PTX is exactly what clang emits without the plugin.
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t.ptx -Rpass-analysis=flipflop -mllvm -flipflop-internal-crash-test=hist 2>&1 | FileCheck %s
// RUN: %clang_cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -O2 -S %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t.ref.ptx
// RUN: cmp %t.ptx %t.ref.ptx
// CHECK: remark: [FF001] kernel 'gemm_tiled
// CHECK: kernels.cu:37:17: remark: [FF900] FlipFlop could not analyse kernel 'hist(unsigned char const*, unsigned int*, int)': internal error while profiling the kernel's IR; no recommendation
// CHECK: remark: [FF001] kernel 'dexp
