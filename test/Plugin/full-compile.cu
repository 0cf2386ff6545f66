// The whole clang CUDA compile (-c: host + device + ptxas + fatbinary) with
// the plugin: one remark per kernel at its line, none for host code, and an
// object produced; at -O2, -O0, with -g, with two architectures and with
// -fgpu-rdc.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_90 -O2 -fpass-plugin=%ffplugin -Rpass-analysis=flipflop -I%flipflop_src/test/Inputs -c %S/Inputs/saxpy.cu -o %t/a.o 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: test -s %t/a.o
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_90 -O0 -fpass-plugin=%ffplugin -Rpass-analysis=flipflop -I%flipflop_src/test/Inputs -c %S/Inputs/saxpy.cu -o %t/b.o 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_90 -O2 -g -fpass-plugin=%ffplugin -Rpass-analysis=flipflop -I%flipflop_src/test/Inputs -c %S/Inputs/saxpy.cu -o %t/c.o 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_90 -O2 -fgpu-rdc -fpass-plugin=%ffplugin -Rpass-analysis=flipflop -I%flipflop_src/test/Inputs -c %S/Inputs/saxpy.cu -o %t/d.o 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -fpass-plugin=%ffplugin -Rpass-analysis=flipflop -I%flipflop_src/test/Inputs -c %S/Inputs/saxpy.cu -o %t/e.o 2>&1 | FileCheck %s --check-prefix=TWO
// CHECK: saxpy.cu:2:17: remark: [FF001] kernel 'saxpy(float, float const*, float*, int)' on H100-SXM5-80GB
// ONE-NOT: remark
// TWO-DAG: saxpy.cu:2:17: remark: [FF001] kernel 'saxpy(float, float const*, float*, int)' on A100-SXM4-40GB
// TWO-DAG: saxpy.cu:2:17: remark: [FF001] kernel 'saxpy(float, float const*, float*, int)' on H100-SXM5-80GB
// TWO-NOT: host_only
