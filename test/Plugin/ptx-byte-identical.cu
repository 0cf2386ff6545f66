// The PreCodeGen callback emits the PTX itself; it must be byte-identical to
// what clang emits without the plugin, at -O0, -O2 and with -g.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O2 -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t.with.ptx
// RUN: %clang_cuda --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -O2 -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t.without.ptx
// RUN: cmp %t.with.ptx %t.without.ptx
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O0 -g -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t.g.with.ptx
// RUN: %clang_cuda --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -O0 -g -S %S/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t.g.without.ptx
// RUN: cmp %t.g.with.ptx %t.g.without.ptx
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O3 -S %flipflop_src/test/Plugin/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t.k.with.ptx
// RUN: %clang_cuda --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -O3 -S %flipflop_src/test/Plugin/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t.k.without.ptx
// RUN: cmp %t.k.with.ptx %t.k.without.ptx
