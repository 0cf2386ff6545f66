// Two --cuda-gpu-arch values: each device module is analysed for its own
// architecture (and its default GPU), and each PTX is written.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -Rpass-analysis=flipflop 2>&1 | FileCheck %s
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// CHECK-DAG: remark: [FF001] kernel 'saxpy(float, float const*, float*, int)' on A100-SXM4-40GB: for energy
// CHECK-DAG: remark: [FF001] kernel 'saxpy(float, float const*, float*, int)' on H100-SXM5-80GB: for energy
// FILES-DAG: sm_80.s
// FILES-DAG: sm_90.s
