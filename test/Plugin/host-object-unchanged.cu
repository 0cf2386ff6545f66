// The plugin is a no-op on the host module: the host object is byte-identical
// with and without it.
// REQUIRES: cuda
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_80 -O2 --cuda-host-only -c %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t.without.o
// RUN: %clang_cuda_host --cuda-gpu-arch=sm_80 -O2 --cuda-host-only -c %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -fpass-plugin=%ffplugin -Rpass-analysis=flipflop -o %t.with.o 2>%t.err
// RUN: cmp %t.without.o %t.with.o
// RUN: count 0 < %t.err
