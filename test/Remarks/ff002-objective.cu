// FF002 explains the configuration FF001 recommends, for every objective
// (it used to explain the "least energy within 5%" pick whatever the
// objective): it ends with the objective's pick, whose block and power limit
// are FF001's.
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-verbosity=1 -mllvm -flipflop-objective=time -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-verbosity=1 -mllvm -flipflop-objective=energy -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ENERGY
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-verbosity=1 -mllvm -flipflop-objective=edp -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=EDP
// RUN: %clang_ff_nocuda -fplugin=%ffplugin --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-verbosity=1 -mllvm -flipflop-objective=energy-within:10 -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=WITHIN

// TIME: remark: [FF001] kernel 'saxpy(float, float const*, float*, int)' on A100-SXM4-40GB: for time use block [[B:[0-9x]+]], min-blocks {{[0-9]+}}, power limit [[P:[0-9]+]] W
// TIME: remark: [FF002] why: {{.*}}. Fastest: [[B]] threads, {{[^:]*}}, [[P]] W limit: {{.*}}
// TIME-NOT: of the fastest:
// ENERGY: for energy use block [[B:[0-9x]+]], min-blocks {{[0-9]+}}, power limit [[P:[0-9]+]] W
// ENERGY: remark: [FF002] why: {{.*}}. Least energy: [[B]] threads, {{[^:]*}}, [[P]] W limit: {{.*}}
// EDP: for edp use block [[B:[0-9x]+]], min-blocks {{[0-9]+}}, power limit [[P:[0-9]+]] W
// EDP: remark: [FF002] why: {{.*}}. Least energy x delay: [[B]] threads, {{[^:]*}}, [[P]] W limit: {{.*}}
// WITHIN: for energy-within use block [[B:[0-9x]+]], min-blocks {{[0-9]+}}, power limit [[P:[0-9]+]] W
// WITHIN: remark: [FF002] why: {{.*}}. Least energy within 10% of the fastest: [[B]] threads, {{[^:]*}}, [[P]] W limit: {{.*}}
