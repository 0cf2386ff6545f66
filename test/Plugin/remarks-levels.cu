// One FF001 remark per kernel, located at the kernel's line, at every -O
// level, with -g, and nothing for host code.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O2 -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O0 -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O3 -g -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O1 -fgpu-rdc -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// CHECK: saxpy.cu:2:{{[0-9]+}}: remark: [FF001] kernel 'saxpy(float, float const*, float*, int)' on H100-SXM5-80GB: for energy use block {{[0-9]+}}, min-blocks {{[0-9]+}}, power limit {{[0-9]+}} W
// CHECK-NOT: host_only
// CHECK-NOT: remark
