// The whole clang CUDA compile (host + device + ptxas + fatbinary) with the
// plugin: remarks for the kernel, none for host code, object produced.
// REQUIRES: cuda
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_90 -O2 -fpass-plugin=%ffplugin -Rpass-analysis=flipflop -I%flipflop_src/test/Inputs -c %S/Inputs/saxpy.cu -o %t.o 2>&1 | FileCheck %s
// RUN: test -s %t.o
// CHECK: saxpy.cu:2:{{[0-9]+}}: remark: kernel 'saxpy(float, float const*, float*, int)'
// CHECK-NOT: remark
