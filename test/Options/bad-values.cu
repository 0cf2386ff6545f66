// An unknown option value or a broken config file is a clear remark, never
// a crash; the default stays in force and the compile succeeds.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env FLIPFLOP_OBJECTIVE=fastest %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t/a.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=OBJ
// OBJ: remark: [FF901] FlipFlop option problem (default kept): invalid value 'fastest' for option 'objective' (from env): expected energy, time, edp or energy-within:<percent>
// OBJ: remark: [FF001] kernel 'saxpy{{.*}}' on A100-SXM4-40GB: for energy use
// RUN: env 'FLIPFLOP_DYNAMIC_SHARED=8*x' %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t/d.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: remark: [FF901] FlipFlop option problem (default kept): invalid value '8*x' for option 'dynamic_shared' (from env): expected BYTES, PER*t or BYTES+PER*t
// RUN: echo '{"gpu": ' > %t/broken.json
// RUN: env FLIPFLOP_CONFIG=%t/broken.json %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t/b.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: remark: [FF901] FlipFlop option problem (default kept): config file '{{.*}}broken.json': {{.*}}
// RUN: env FLIPFLOP_GPU=NoSuchGPU %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %S/../Plugin/Inputs/saxpy.cu -I%flipflop_src/test/Inputs -o %t/c.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: remark: [FF900] FlipFlop could not analyse kernel 'saxpy(float, float const*, float*, int)': {{.*}}NoSuchGPU{{.*}}; no recommendation
// RUN: test -s %t/c.s
