// A value outside an option's range is refused with a warning and leaves the
// option as it was (issue 17: setters wrote the value before checking it).
// verbosity=7 used to stay 7 (FF002/FF003 remarks appeared); a half-valid
// args list used to keep its valid part; problem_size=0 was accepted.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env FLIPFLOP_VERBOSITY=7 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/a.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=VERB
// VERB: warning: FlipFlop: invalid value '7' for option 'verbosity'
// VERB: remark: [FF001] kernel 'sum(float*, int)'
// VERB-NOT: [FF002]
// RUN: env FLIPFLOP_ARGS=1=4096,x=3 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/b.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: warning: FlipFlop: invalid value '1=4096,x=3' for option 'args'
// ARGS: remark: [FF001] {{.*}}guessed: loop at line {{[0-9]+}}
// RUN: env FLIPFLOP_PROBLEM_SIZE=0 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/c.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: warning: FlipFlop: invalid value '0' for option 'problem_size'
// RUN: env FLIPFLOP_POWER_STEPS=100 %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/d.s -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=STEPS
// STEPS: warning: FlipFlop: invalid value '100' for option 'power_steps'
#include "ff_cuda.h"
__global__ void sum(float *y, int n) {
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += y[j] * 1.5f;
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
